package io.viewbase.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.viewbase.storage.spi.StorageProvider;
import io.viewbase.storage.spi.StoreConfig;
import io.viewbase.storage.spi.StoreOptionException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SPI's {@code StoreOptions}, the one parser of backend options, through both backends that
 * take options: the same form of value is refused by each with the same message, naming the option,
 * before anything is opened (so no Cassandra node is needed).
 */
class StoreOptionsAcrossBackendsTest {
  @TempDir Path dir;

  /**
   * An option of one backend, a value, and the message it is refused with (the option name first).
   */
  private record Row(String backend, String option, String value, String message) {}

  private static final List<Row> ROWS =
      List.of(
          new Row(
              "rocksdb",
              "rocksdb.bogus",
              "1",
              "unknown option rocksdb.bogus; the rocksdb backend knows ["),
          new Row(
              "cassandra",
              "cassandra.bogus",
              "1",
              "unknown option cassandra.bogus; the cassandra backend knows ["),
          new Row(
              "rocksdb",
              "rocksdb.maxBackgroundJobs",
              "lots",
              "rocksdb.maxBackgroundJobs must be a whole number from 1 to 64, not 'lots'"),
          new Row(
              "cassandra",
              "cassandra.pageSize",
              "lots",
              "cassandra.pageSize must be a whole number from 10 to 100000, not 'lots'"),
          new Row(
              "rocksdb",
              "rocksdb.recycleLogFiles",
              " 65 ",
              "rocksdb.recycleLogFiles must be a whole number from 0 to 64, not '65'"),
          new Row(
              "cassandra",
              "cassandra.pageSize",
              " 9 ",
              "cassandra.pageSize must be a whole number from 10 to 100000, not '9'"),
          new Row(
              "rocksdb",
              "rocksdb.blockCacheBytes",
              "lots",
              "rocksdb.blockCacheBytes must be a size such as 134217728 or 128m, not 'lots'"),
          new Row(
              "cassandra",
              "cassandra.requestTimeout",
              "forever",
              "cassandra.requestTimeout must be a duration from 1ms to 60m such as 500ms, 10s or 1m, not 'forever'"),
          new Row(
              "rocksdb",
              "rocksdb.walCompression",
              "lz4",
              "rocksdb.walCompression must be zstd or none, not 'lz4'"),
          new Row(
              "cassandra",
              "cassandra.localDatacenter",
              " ",
              "cassandra.localDatacenter must not be empty"));

  @Test
  void eachBackendRefusesEachBadOptionWithTheParsersMessageNamingIt() {
    for (Row row : ROWS) {
      StoreOptionException e =
          catchThrowableOfType(
              () ->
                  provider(row.backend())
                      .open(
                          new StoreConfig(
                              dir.resolve(row.backend()), false, Map.of(row.option(), row.value())))
                      .close(),
              StoreOptionException.class);

      assertThat(e).as(row.toString()).isNotNull();
      assertThat(e.getMessage()).as(row.toString()).startsWith(row.message());
      assertThat(e.option()).as(row.toString()).isEqualTo(row.option());
    }
  }

  private static StorageProvider provider(String name) {
    return ServiceLoader.load(StorageProvider.class).stream()
        .map(ServiceLoader.Provider::get)
        .filter(p -> p.name().equals(name))
        .findFirst()
        .orElseThrow();
  }
}
