package io.viewbase.server.azure.sdk;

import static io.viewbase.server.azure.sdk.SdkErrors.assertFails;
import static io.viewbase.server.azure.sdk.SdkErrors.assertUnmappedFails;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.azure.core.exception.HttpResponseException;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import com.azure.data.tables.models.TableTransactionFailedException;
import com.azure.data.tables.sas.TableSasPermission;
import com.azure.data.tables.sas.TableSasSignatureValues;
import io.viewbase.api.Value;
import io.viewbase.api.ViewDefinition;
import io.viewbase.api.ViewbaseException;
import io.viewbase.filter.Filter;
import io.viewbase.filter.FilterDialect;
import io.viewbase.filter.Filters;
import io.viewbase.server.ViewBuilds;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A table SAS limited to a key range, on every path that reads or writes entities: point reads,
 * queries with filters written to escape the range, batches, and a view read as a table. The last
 * test generates filters (balanced and not) for many seeds and holds each answer against the range.
 */
class SasRangeSdkTest {
  @RegisterExtension static final AzureSdkServer azure = new AzureSdkServer();

  /** Partition keys around the range's ends, with a quote, a parenthesis and the empty key. */
  private static final List<String> PARTITIONS =
      List.of("", "a", "az", "az0", "az00", "az1", "b", "it's", ")", "k");

  private static final List<String> ROWS = List.of("", "j", "k", "l", "z");

  /**
   * The filters of the report: each closes a group it did not open, to escape a range joined to it
   * as text ({@code (filter) and range}). Parsed on their own, they are unbalanced.
   */
  private static final List<String> ESCAPES =
      List.of(
          "PartitionKey ge '') or (PartitionKey ge ''",
          "true) or (true",
          "x ne 'a') or (x ne 'a'",
          "RowKey eq 'k') or not (RowKey eq 'k'");

  /** Balanced filters that hold for every entity. */
  private static final List<String> EVERYTHING =
      List.of(
          "PartitionKey ge '' or PartitionKey ge ''",
          "true or true",
          "x ne 'a' or x ne 'a' or not (x ne 'a')",
          "RowKey eq 'k' or not (RowKey eq 'k')");

  private static TableClient table;
  private static String viewName;

  /** Every entity, by partition key and row key, with its properties as the oracle reads them. */
  private static final Map<List<String>, Map<String, Value>> ENTITIES = new LinkedHashMap<>();

  @BeforeAll
  static void fill() {
    table = azure.newTable("Ranged");
    int n = 0;
    for (String pk : PARTITIONS) {
      for (String rk : ROWS) {
        String x = PARTITIONS.get(n % PARTITIONS.size());
        table.createEntity(
            new TableEntity(pk, rk)
                .addProperty("x", x)
                .addProperty("n", n)
                .addProperty("b", n % 3 == 0)
                .addProperty("email", "e" + n + "@example.com"));
        ENTITIES.put(
            List.of(pk, rk), Map.of("x", Value.of(x), "n", Value.of(n), "b", Value.of(n % 3 == 0)));
        n++;
      }
    }
    viewName = AzureSdkServer.uniqueName("RangedByX");
    azure.db().createView(ViewDefinition.of(viewName, table.getTableName(), "{x}", "{email}"));
    awaitReady(viewName);
  }

  private static void awaitReady(String view) {
    ViewBuilds.awaitReady(azure.db(), view);
  }

  /**
   * A table SAS for the range. The SDK takes a partition key only with a row key, so an open row
   * bound is given as one below or above every row key here ("" and "zz"); the oracle uses the
   * same.
   */
  private static String sas(
      String tableName, String permissions, String spk, String srk, String epk, String erk) {
    srk = spk != null && srk == null ? "" : srk;
    erk = epk != null && erk == null ? "zz" : erk;
    TableSasSignatureValues values =
        new TableSasSignatureValues(
                OffsetDateTime.now(ZoneOffset.UTC).plusHours(1),
                TableSasPermission.parse(permissions))
            .setStartPartitionKey(spk)
            .setStartRowKey(srk)
            .setEndPartitionKey(epk)
            .setEndRowKey(erk);
    return azure.table(tableName).generateSas(values);
  }

  private static List<String> keysOf(TableClient client, String filter) {
    List<String> keys = new ArrayList<>();
    client
        .listEntities(new ListEntitiesOptions().setFilter(filter), null, null)
        .forEach(e -> keys.add(e.getPartitionKey() + "/" + e.getRowKey()));
    return keys;
  }

  @Test
  void filtersWrittenToEscapeTheRangeAreRefusedAndBalancedOnesKeepToIt() {
    TableClient ranged =
        azure.sasTableClient(
            table.getTableName(), sas(table.getTableName(), "r", "az0", null, "az0", null));

    for (String escape : ESCAPES) {
      assertUnmappedFails(400, "InvalidInput", () -> keysOf(ranged, escape));
    }
    for (String everything : EVERYTHING) {
      assertThat(keysOf(ranged, everything))
          .as(everything)
          .containsExactly("az0/", "az0/j", "az0/k", "az0/l", "az0/z");
    }
    assertThat(keysOf(ranged, null)).containsExactly("az0/", "az0/j", "az0/k", "az0/l", "az0/z");
  }

  @Test
  void pointReadsInsideTheRangeAnswerAndOutsideAreRefused() {
    TableClient ranged =
        azure.sasTableClient(
            table.getTableName(), sas(table.getTableName(), "r", "az0", "k", "az1", "j"));

    assertThat(ranged.getEntity("az0", "k").getProperty("x")).isNotNull();
    assertThat(ranged.getEntity("az00", "").getProperty("x")).isNotNull();
    assertThat(ranged.getEntity("az1", "j").getProperty("x")).isNotNull();
    assertFails(403, "AuthorizationPermissionMismatch", () -> ranged.getEntity("az0", "j"));
    assertFails(403, "AuthorizationPermissionMismatch", () -> ranged.getEntity("az1", "k"));
    assertFails(403, "AuthorizationPermissionMismatch", () -> ranged.getEntity("b", "k"));
    assertThat(keysOf(ranged, "RowKey eq 'k' or not (RowKey eq 'k')"))
        .containsExactly(
            "az0/k", "az0/l", "az0/z", "az00/", "az00/j", "az00/k", "az00/l", "az00/z", "az1/",
            "az1/j");
  }

  @Test
  void batchWithAnOperationOutsideTheRangeIsRefusedAndWritesNothing() {
    TableClient own = azure.newTable("RangedBatch");
    own.createEntity(new TableEntity("az0", "k").addProperty("n", 1));
    own.createEntity(new TableEntity("az00", "k").addProperty("n", 1));
    TableClient ranged =
        azure.sasTableClient(
            own.getTableName(), sas(own.getTableName(), "raud", "az0", null, "az0", null));

    ranged.submitTransaction(
        List.of(
            new TableTransactionAction(
                TableTransactionActionType.UPSERT_MERGE,
                new TableEntity("az0", "k").addProperty("n", 2)),
            new TableTransactionAction(
                TableTransactionActionType.UPSERT_MERGE,
                new TableEntity("az0", "l").addProperty("n", 2))));
    Throwable outside =
        catchThrowable(
            () ->
                ranged.submitTransaction(
                    List.of(
                        new TableTransactionAction(
                            TableTransactionActionType.UPSERT_MERGE,
                            new TableEntity("az0", "k").addProperty("n", 3)),
                        new TableTransactionAction(
                            TableTransactionActionType.DELETE, new TableEntity("az0", "l")),
                        new TableTransactionAction(
                            TableTransactionActionType.UPSERT_MERGE,
                            new TableEntity("az00", "k").addProperty("n", 3)))));

    assertThat(outside).isInstanceOf(TableTransactionFailedException.class);
    assertThat(((TableTransactionFailedException) outside).getFailedTransactionActionIndex())
        .isEqualTo(2);
    assertThat(own.getEntity("az0", "k").getProperty("n")).isEqualTo(2);
    assertThat(own.getEntity("az0", "l").getProperty("n")).isEqualTo(2);
    assertThat(own.getEntity("az00", "k").getProperty("n")).isEqualTo(1);
  }

  @Test
  void viewReadThroughARangedSasKeepsToTheViewsKeys() {
    TableClient view = azure.sasTableClient(viewName, sas(viewName, "r", "az0", null, "az0", null));

    for (String escape : ESCAPES) {
      assertUnmappedFails(400, "InvalidInput", () -> keysOf(view, escape));
    }
    for (String everything : EVERYTHING) {
      assertThat(keysOf(view, everything))
          .as(everything)
          .hasSize(5)
          .allMatch(k -> k.startsWith("az0/"));
    }
    String inside = keysOf(view, null).get(0);
    String id = inside.substring(inside.indexOf('/') + 1);
    assertThat(view.getEntity("az0", id).getPartitionKey()).isEqualTo("az0");
    assertFails(403, "AuthorizationPermissionMismatch", () -> view.getEntity("az1", id));
  }

  /**
   * Random filters, many of them written to close the range off ({@code ) or (}, unbalanced
   * parentheses, quotes in literals), through the SDK: each either fails to parse (400, as it would
   * without a SAS) or returns exactly the entities that match it and lie in the range.
   */
  @Test
  void noGeneratedFilterReturnsAnEntityOutsideTheRange() {
    List<String[]> ranges =
        List.of(
            new String[] {"az0", null, "az0", null},
            new String[] {"a", "k", "az1", "k"},
            new String[] {"it's", null, null, null},
            new String[] {null, null, "az", "j"});
    for (long seed = 1; seed <= 40; seed++) {
      Random random = new Random(seed);
      String[] r = ranges.get((int) (seed % ranges.size()));
      TableClient ranged =
          azure.sasTableClient(
              table.getTableName(), sas(table.getTableName(), "r", r[0], r[1], r[2], r[3]));
      for (int i = 0; i < 15; i++) {
        String filter = FilterText.random(random);
        String context = "seed " + seed + ", filter #" + i + ": " + filter;
        Set<String> expected = expected(filter, r);
        if (expected == null) {
          Throwable refused = catchThrowable(() -> keysOf(ranged, filter));
          assertThat(refused).as(context).isInstanceOf(HttpResponseException.class);
          assertThat(((HttpResponseException) refused).getResponse().getStatusCode())
              .as(context)
              .isEqualTo(400);
          continue;
        }
        assertThat(new TreeSet<>(keysOf(ranged, filter))).as(context).isEqualTo(expected);
      }
    }
  }

  /**
   * The entities a filter matches within the range, by the filter language alone; null if it does
   * not parse.
   */
  private static Set<String> expected(String filter, String[] range) {
    Filter parsed;
    try {
      parsed = Filters.parse(filter, FilterDialect.AZURE);
    } catch (ViewbaseException e) {
      return null;
    }
    Set<String> keys = new TreeSet<>();
    ENTITIES.forEach(
        (key, properties) -> {
          String pk = key.get(0);
          String rk = key.get(1);
          if (inRange(pk, rk, range) && Filters.matches(parsed, pk, rk, null, properties)) {
            keys.add(pk + "/" + rk);
          }
        });
    return keys;
  }

  /**
   * The range's rule written out by hand, apart from the server's: (spk, srk) <= (pk, rk) <= (epk,
   * erk).
   */
  private static boolean inRange(String pk, String rk, String[] range) {
    if (range[0] != null) {
      int c = Filters.compareStrings(pk, range[0]);
      if (c < 0 || c == 0 && range[1] != null && Filters.compareStrings(rk, range[1]) < 0) {
        return false;
      }
    }
    if (range[2] != null) {
      int c = Filters.compareStrings(pk, range[2]);
      return c < 0 || c == 0 && (range[3] == null || Filters.compareStrings(rk, range[3]) <= 0);
    }
    return true;
  }

  /**
   * Filter text from a small grammar, with fragments that try to end one group and start another.
   */
  private static final class FilterText {
    private static final List<String> PROPERTIES = List.of("PartitionKey", "RowKey", "x");
    private static final List<String> OPS = List.of("eq", "ne", "gt", "ge", "lt", "le");
    private static final List<String> BREAKS =
        List.of(
            ") or (",
            ") or not (",
            ")",
            "(",
            " or true",
            ") or true or (",
            "') or ('",
            "'');(",
            " or PartitionKey ne ''");

    static String random(Random random) {
      StringBuilder out = new StringBuilder();
      expression(random, out, 0);
      if (random.nextInt(3) == 0) {
        int at = random.nextInt(out.length() + 1);
        out.insert(at, BREAKS.get(random.nextInt(BREAKS.size())));
      }
      return out.toString();
    }

    private static void expression(Random random, StringBuilder out, int depth) {
      int pick = depth > 3 ? 0 : random.nextInt(6);
      switch (pick) {
        case 0, 1 -> comparison(random, out);
        case 2 -> {
          expression(random, out, depth + 1);
          out.append(random.nextBoolean() ? " and " : " or ");
          expression(random, out, depth + 1);
        }
        case 3 -> {
          out.append("not (");
          expression(random, out, depth + 1);
          out.append(')');
        }
        case 4 -> {
          out.append('(');
          expression(random, out, depth + 1);
          out.append(')');
        }
        default ->
            out.append(List.of("true", "false", "b", "n gt 20", "n le 7").get(random.nextInt(5)));
      }
    }

    private static void comparison(Random random, StringBuilder out) {
      String literal =
          "'" + PARTITIONS.get(random.nextInt(PARTITIONS.size())).replace("'", "''") + "'";
      String property = PROPERTIES.get(random.nextInt(PROPERTIES.size()));
      String op = OPS.get(random.nextInt(OPS.size()));
      if (random.nextInt(4) == 0) {
        out.append(literal).append(' ').append(op).append(' ').append(property);
      } else {
        out.append(property).append(' ').append(op).append(' ').append(literal);
      }
    }
  }

  /**
   * One order for the range everywhere: the engine's (code points, the order of UTF-8 bytes). In
   * UTF-16 order U+10000 sorts before U+E001, so point reads once refused what queries returned.
   */
  @Test
  void keysAboveTheBmpAreInsideTheRangeForPointReadsAsForQueries() {
    TableClient own = azure.newTable("RangedPlanes");
    String privateUse = "\uE001";
    String supplementary = new String(Character.toChars(0x10000));
    own.createEntity(new TableEntity(privateUse, "r"));
    own.createEntity(new TableEntity(supplementary, "r"));
    own.createEntity(new TableEntity("z", "r"));
    TableClient ranged =
        azure.sasTableClient(
            own.getTableName(),
            sas(
                own.getTableName(),
                "r",
                "\uE000",
                null,
                new String(Character.toChars(0x10FFFF)),
                null));

    assertThat(keysOf(ranged, null)).containsExactly(privateUse + "/r", supplementary + "/r");
    assertThat(ranged.getEntity(privateUse, "r").getPartitionKey()).isEqualTo(privateUse);
    assertThat(ranged.getEntity(supplementary, "r").getPartitionKey()).isEqualTo(supplementary);
    assertFails(403, "AuthorizationPermissionMismatch", () -> ranged.getEntity("z", "r"));
  }

  @Test
  void unrangedSasStillReadsEverything() {
    TableClient all =
        azure.sasTableClient(
            table.getTableName(), sas(table.getTableName(), "r", null, null, null, null));

    assertThat(keysOf(all, "true")).hasSize(ENTITIES.size());
    assertUnmappedFails(400, "InvalidInput", () -> keysOf(all, "true) or (true"));
  }
}
