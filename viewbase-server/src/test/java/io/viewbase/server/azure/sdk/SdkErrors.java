package io.viewbase.server.azure.sdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.azure.core.exception.HttpResponseException;
import com.azure.data.tables.models.TableServiceException;
import com.azure.data.tables.models.TableTransactionFailedException;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/**
 * Assertions on the failures the SDK reports. The SDK surfaces them in three shapes:
 *
 * <pre>
 * operation                       | the SDK throws                         | status from      | code from
 * --------------------------------+----------------------------------------+------------------+-----------------------
 * single entity and table calls   | TableServiceException                  | getResponse()    | getValue().getErrorCode()
 * paged lists (listTables,        | an HttpResponseException of its        | getResponse()    | x-ms-error-code header
 *   listEntities), table ACLs     |   implementation (not mapped)          |                  |
 * submitTransaction               | TableTransactionFailedException, whose | the sub-response | getValue().getErrorCode()
 *                                 |   getResponse() is null by design      |   on the wire    |
 * </pre>
 */
final class SdkErrors {
  private SdkErrors() {}

  /**
   * Runs the call, asserts that the SDK threw a {@link TableServiceException} (or this subclass)
   * with this status and error code, and returns it for further checks.
   */
  static <T extends TableServiceException> T assertFails(
      Class<T> type, int status, String errorCode, ThrowingCallable call) {
    Throwable thrown = catchThrowable(call);
    assertThat(thrown).as("the SDK's exception").isInstanceOf(type);
    T e = type.cast(thrown);
    assertThat(e.getResponse()).as("the response of: %s", e.getMessage()).isNotNull();
    assertThat(e.getResponse().getStatusCode())
        .as("HTTP status of: %s", e.getMessage())
        .isEqualTo(status);
    assertThat(e.getValue())
        .as("the error body the SDK parsed, for: %s", e.getMessage())
        .isNotNull();
    assertThat(String.valueOf(e.getValue().getErrorCode()))
        .as("error code of: %s", e.getMessage())
        .isEqualTo(errorCode);
    return e;
  }

  static TableServiceException assertFails(int status, String errorCode, ThrowingCallable call) {
    return assertFails(TableServiceException.class, status, errorCode, call);
  }

  /**
   * For the calls whose failures the SDK does not map to {@link TableServiceException} (paged
   * lists, access policies): the status and the {@code x-ms-error-code} header of the response it
   * carries.
   */
  static HttpResponseException assertUnmappedFails(
      int status, String errorCode, ThrowingCallable call) {
    Throwable thrown = catchThrowable(call);
    assertThat(thrown).as("the SDK's exception").isInstanceOf(HttpResponseException.class);
    HttpResponseException e = (HttpResponseException) thrown;
    assertThat(e.getResponse().getStatusCode())
        .as("HTTP status of: %s", e.getMessage())
        .isEqualTo(status);
    assertThat(e.getResponse().getHeaderValue("x-ms-error-code"))
        .as("x-ms-error-code of: %s", e.getMessage())
        .isEqualTo(errorCode);
    return e;
  }

  /**
   * Asserts a failed transaction: the SDK's exception with the failing action's index and error
   * code, and, on the wire (seen by {@code tap} on the client that submitted it), a 202 whose
   * single sub-response carries the failure's status. A null {@code failedIndex} is for failures of
   * the whole batch, which Azure reports at no fixed index.
   */
  static TableTransactionFailedException assertTransactionFails(
      WireTap tap, int status, String errorCode, Integer failedIndex, ThrowingCallable call) {
    Throwable thrown = catchThrowable(call);
    assertThat(thrown)
        .as("the SDK's exception")
        .isInstanceOf(TableTransactionFailedException.class);
    TableTransactionFailedException e = (TableTransactionFailedException) thrown;
    assertThat(e.getValue()).as("the error the SDK parsed, for: %s", e.getMessage()).isNotNull();
    assertThat(String.valueOf(e.getValue().getErrorCode()))
        .as("error code of: %s", e.getMessage())
        .isEqualTo(errorCode);
    if (failedIndex != null) {
      assertThat(e.getFailedTransactionActionIndex())
          .as("failed index of: %s", e.getMessage())
          .isEqualTo(failedIndex);
    }
    assertThat(tap.status()).as("the $batch answer").isEqualTo(202);
    assertThat(tap.body()).as("the failing sub-response").contains("HTTP/1.1 " + status + " ");
    return e;
  }
}
