package io.viewbase.server.dynamodb;

import io.viewbase.api.Stability;

/**
 * What an operation knows of the request it serves, beyond its body: who signed it, where, and how
 * its answer is identified.
 *
 * @param operation the operation's name, as X-Amz-Target gave it ({@code PutItem})
 * @param region the region of the request's credential scope ({@code us-east-1}); every region sees
 *     the same tables
 * @param account the account id of ARNs ({@code --dynamodb-account}, default {@code 000000000000})
 * @param accessKeyId the access key id the request was signed with
 * @param requestId the answer's {@code x-amzn-RequestId}
 * @param host the request's {@code Host} header (DescribeEndpoints answers it), or null
 */
@Stability(Stability.Level.EXPERIMENTAL)
public record CallContext(
    String operation,
    String region,
    String account,
    String accessKeyId,
    String requestId,
    String host) {

  /** {@code arn:aws:dynamodb:REGION:ACCOUNT:table/NAME}. */
  public String tableArn(String table) {
    return "arn:aws:dynamodb:" + region + ":" + account + ":table/" + table;
  }

  /** {@code arn:aws:dynamodb:REGION:ACCOUNT:table/NAME/index/INDEX}. */
  public String indexArn(String table, String index) {
    return tableArn(table) + "/index/" + index;
  }
}
