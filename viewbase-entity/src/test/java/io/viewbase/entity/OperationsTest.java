package io.viewbase.entity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Query;
import io.viewbase.api.Viewbase;
import io.viewbase.api.ViewbaseException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Each operation of EntityClient, its conditions, batches, transactions, queries and cursors. */
class OperationsTest {
  record Product(String sku, String category, String name, long price, String note) {}

  record Review(String sku, String reviewId, int stars) {}

  static final Entity<Product> PRODUCTS =
      Entity.define("product", Product.class)
          .service("shop")
          .attribute(Attribute.string("sku").required())
          .attribute(Attribute.string("category").required())
          .attribute(Attribute.string("name").required())
          .attribute(Attribute.number("price").required().padding(8))
          .attribute(Attribute.string("note").readOnly())
          .index(Index.primary("bySku").namespace("item").pk("sku").collection("catalog"))
          .index(
              Index.secondary("byCategory")
                  .namespace("category")
                  .pk("category")
                  .sk("price", "name"))
          .index(Index.secondary("cheap").namespace("cheap").sk("name").condition("price lt 100"))
          .build();

  static final Entity<Review> REVIEWS =
      Entity.define("review", Review.class)
          .service("shop")
          .attribute(Attribute.string("sku").required())
          .attribute(Attribute.string("reviewId").required())
          .attribute(Attribute.number("stars").required())
          .index(
              Index.primary("bySku")
                  .namespace("item")
                  .pk("sku")
                  .sk("reviewId")
                  .collection("catalog"))
          .build();

  Database db;
  ServiceTable shop;
  EntityClient<Product> products;
  EntityClient<Review> reviews;

  @BeforeEach
  void open() {
    db = Viewbase.open(OpenOptions.inMemory());
    shop =
        Service.define("shop")
            .entity(PRODUCTS)
            .entity(REVIEWS)
            .build()
            .open(db, "Shop", Duration.ofSeconds(30));
    products = shop.entity(PRODUCTS);
    reviews = shop.entity(REVIEWS);
  }

  @AfterEach
  void close() {
    db.close();
  }

  static Map<String, Object> sku(String sku) {
    return Map.of("sku", sku);
  }

  @Test
  void createOfAnExistingItemFailsWithItemAlreadyExists() {
    products.create(new Product("p1", "tea", "Sencha", 900, null));
    var e =
        catchThrowableOfType(
            ViewbaseException.class,
            () -> products.create(new Product("p1", "tea", "Other", 1, null)));
    assertThat(e.code()).isEqualTo(ErrorCode.ItemAlreadyExists);
    assertThat(products.get(sku("p1")).orElseThrow().name()).isEqualTo("Sencha");
  }

  @Test
  void putReplacesAndPatchOfAnAbsentItemFailsWithItemNotFound() {
    products.put(new Product("p1", "tea", "Sencha", 900, "first"));
    products.put(new Product("p1", "tea", "Sencha", 950, null));
    assertThat(products.get(sku("p1"))).contains(new Product("p1", "tea", "Sencha", 950, null));

    var e =
        catchThrowableOfType(
            ViewbaseException.class, () -> products.patch(sku("p9"), Changes.set("price", 1)));
    assertThat(e.code()).isEqualTo(ErrorCode.ItemNotFound);
    assertThat(products.get(sku("p9"))).isEmpty();
  }

  @Test
  void upsertCreatesThenMergesKeepingReadOnlyAttributes() {
    products.upsert(new Product("p1", "tea", "Sencha", 900, "imported"));
    products.upsert(new Product("p1", "tea", "Sencha", 990, "changed"));
    assertThat(products.get(sku("p1")))
        .contains(new Product("p1", "tea", "Sencha", 990, "imported"));
  }

  @Test
  void updateCreatesAnItemFromTheKeyAndTheChanges() {
    products.update(
        sku("p2"), Changes.set("name", "Oolong").and("category", "tea").and("price", 120));
    assertThat(products.get(sku("p2"))).contains(new Product("p2", "tea", "Oolong", 120, null));
    assertThat(products.query("byCategory", Map.of("category", "tea")).all()).hasSize(1);
  }

  @Test
  void deleteIsIdempotentAndRemoveIsStrict() {
    products.create(new Product("p1", "tea", "Sencha", 900, null));
    assertThat(products.delete(sku("p1"))).isTrue();
    assertThat(products.delete(sku("p1"))).isFalse();
    var e = catchThrowableOfType(ViewbaseException.class, () -> products.remove(sku("p1")));
    assertThat(e.code()).isEqualTo(ErrorCode.ItemNotFound);
  }

  @Test
  void writesConditionalOnAnEtagFailWhenItIsStale() {
    Stored<Product> v1 = products.create(new Product("p1", "tea", "Sencha", 900, null));
    products.patch(sku("p1"), Changes.set("price", 950), Condition.ifMatch(v1.etag()));

    var e =
        catchThrowableOfType(
            ViewbaseException.class,
            () -> products.patch(sku("p1"), Changes.set("price", 1), Condition.ifMatch(v1.etag())));
    assertThat(e.code()).isEqualTo(ErrorCode.PreconditionFailed);
    var r =
        catchThrowableOfType(
            ViewbaseException.class,
            () -> products.remove(sku("p1"), Condition.ifMatch(v1.etag())));
    assertThat(r.code()).isEqualTo(ErrorCode.PreconditionFailed);
    assertThat(products.get(sku("p1")).orElseThrow().price()).isEqualTo(950);
  }

  @Test
  void writesConditionalOnAFilterApplyOnlyWhenItMatches() {
    products.create(new Product("p1", "tea", "Sencha", 900, null));
    products.patch(sku("p1"), Changes.set("price", 800), Condition.where("price gt 500"));

    var e =
        catchThrowableOfType(
            ViewbaseException.class,
            () ->
                products.patch(
                    sku("p1"), Changes.set("price", 1), Condition.where("price gt 5000")));
    assertThat(e.code()).isEqualTo(ErrorCode.PreconditionFailed);
    assertThat(e.context()).containsEntry("condition", "price gt 5000");
    assertThat(products.get(sku("p1")).orElseThrow().price()).isEqualTo(800);
  }

  @Test
  void batchPutGetAndDelete() {
    List<Product> many = new ArrayList<>();
    for (int i = 0; i < 230; i++) {
      many.add(new Product("p" + i, i % 2 == 0 ? "tea" : "cups", "n" + i, i, null));
    }
    assertThat(products.batchPut(many)).isEqualTo(230);
    assertThat(products.batchGet(List.of(sku("p3"), sku("nope"), sku("p200"))))
        .extracting(Product::sku)
        .containsExactly("p3", "p200");
    products.batchDelete(List.of(sku("p3"), sku("p200")));
    assertThat(products.batchGet(List.of(sku("p3"), sku("p200")))).isEmpty();
    assertThat(products.query("byCategory", Map.of("category", "tea")).all()).hasSize(114);
  }

  @Test
  void sortKeyConditionsAreKeyRanges() {
    for (int price : new int[] {5, 50, 500, 5000}) {
      products.create(new Product("p" + price, "tea", "n" + price, price, null));
    }
    var tea = Map.of("category", "tea");
    assertThat(prices(products.query("byCategory", tea))).containsExactly(5L, 50L, 500L, 5000L);
    assertThat(prices(products.query("byCategory", tea).gt(Map.of("price", 50))))
        .containsExactly(500L, 5000L);
    assertThat(prices(products.query("byCategory", tea).gte(Map.of("price", 50))))
        .containsExactly(50L, 500L, 5000L);
    assertThat(prices(products.query("byCategory", tea).lt(Map.of("price", 500))))
        .containsExactly(5L, 50L);
    assertThat(prices(products.query("byCategory", tea).lte(Map.of("price", 500))))
        .containsExactly(5L, 50L, 500L);
    assertThat(
            prices(
                products
                    .query("byCategory", tea)
                    .between(Map.of("price", 50), Map.of("price", 500))))
        .containsExactly(50L, 500L);
    assertThat(prices(products.query("byCategory", Map.of("category", "tea", "price", 500))))
        .containsExactly(500L);
    assertThat(prices(products.query("byCategory", tea).descending()))
        .containsExactly(5000L, 500L, 50L, 5L);
    assertThat(prices(products.query("byCategory", tea).where("name ne 'n50'")))
        .containsExactly(5L, 500L, 5000L);
    assertThat(prices(products.query("cheap", Map.of()))).containsExactly(5L, 50L);
  }

  @Test
  void aWhereThatClosesItsGroupCannotEscapeTheEntityOrTheItem() {
    products.create(new Product("p1", "tea", "Sencha", 900, null));
    products.create(new Product("p2", "tea", "Matcha", 800, null));
    reviews.create(new Review("p1", "r1", 5)); // the same partition: the catalog collection

    for (String escape : List.of("true) or (true", "price gt 0) or not (price gt 0")) {
      var refused =
          catchThrowableOfType(
              ViewbaseException.class,
              () -> products.query("bySku", sku("p1")).where(escape).all());
      assertThat(refused.code()).as(escape).isEqualTo(ErrorCode.InvalidFilter);
      var patch =
          catchThrowableOfType(
              ViewbaseException.class,
              () -> products.patch(sku("p2"), Changes.set("price", 1), Condition.where(escape)));
      assertThat(patch.code()).as(escape).isEqualTo(ErrorCode.InvalidFilter);
    }
    assertThat(products.query("bySku", sku("p1")).where("true or true").all())
        .extracting(Product::name)
        .containsExactly("Sencha");
    assertThat(products.get(sku("p2")).orElseThrow().price()).isEqualTo(800);
  }

  @Test
  void aSortKeyValueAfterAGapIsRefused() {
    var e =
        catchThrowableOfType(
            ViewbaseException.class,
            () -> products.query("byCategory", Map.of("category", "tea", "name", "x")));
    assertThat(e.code()).isEqualTo(ErrorCode.InvalidInput);
    assertThat(e.getMessage()).contains("without gaps");
  }

  @Test
  void aQueryKeyNamingANonKeyAttributeIsRefused() {
    var e =
        catchThrowableOfType(
            ViewbaseException.class,
            () -> products.query("byCategory", Map.of("category", "tea", "note", "x")));
    assertThat(e.code()).isEqualTo(ErrorCode.InvalidInput);
    assertThat(e.getMessage()).contains("'note'", "not one of its key attributes");
  }

  @Test
  void pagesFollowCursorsToTheEnd() {
    for (int i = 0; i < 25; i++) {
      products.create(new Product("p" + i, "tea", "n" + i, i, null));
    }
    List<Long> seen = new ArrayList<>();
    String cursor = null;
    int pages = 0;
    do {
      EntityPage<Product> page =
          products.query("byCategory", Map.of("category", "tea")).limit(10).page(cursor);
      page.items().forEach(p -> seen.add(p.price()));
      cursor = page.cursor();
      pages++;
    } while (cursor != null);
    assertThat(pages).isGreaterThanOrEqualTo(3);
    assertThat(seen).hasSize(25).isSorted();
  }

  @Test
  void aCollectionIsReadInOneCallGroupedByEntityAndPaged() {
    products.create(new Product("p1", "tea", "Sencha", 900, null));
    for (int i = 0; i < 5; i++) {
      reviews.create(new Review("p1", "r" + i, 1 + i % 5));
    }
    reviews.create(new Review("p2", "other", 3));

    CollectionPage all = shop.collection("catalog", sku("p1")).all();
    assertThat(all.items(PRODUCTS)).extracting(Product::name).containsExactly("Sencha");
    assertThat(all.items(REVIEWS))
        .extracting(Review::reviewId)
        .containsExactly("r0", "r1", "r2", "r3", "r4");

    List<String> paged = new ArrayList<>();
    String cursor = null;
    do {
      CollectionPage page = shop.collection("catalog", sku("p1")).limit(2).page(cursor);
      page.items(REVIEWS).forEach(r -> paged.add(r.reviewId()));
      cursor = page.cursor();
    } while (cursor != null);
    assertThat(paged).containsExactly("r0", "r1", "r2", "r3", "r4");
  }

  @Test
  void aTransactionWritesAllOrNothing() {
    Stored<Product> p1 = products.create(new Product("p1", "tea", "Sencha", 900, null));
    products.create(new Product("p0", "tea", "Bancha", 500, null));
    var e =
        catchThrowableOfType(
            ViewbaseException.class,
            () ->
                shop.transaction()
                    .create(REVIEWS, new Review("p1", "r1", 5))
                    .patch(PRODUCTS, sku("p1"), Changes.set("price", 1000), Condition.NONE)
                    .create(PRODUCTS, new Product("p0", "tea", "Dup", 1, null))
                    .commit());
    assertThat(e.code()).isEqualTo(ErrorCode.ItemAlreadyExists);
    assertThat(e.context()).containsEntry("operationIndex", 2);
    assertThat(reviews.get(Map.of("sku", "p1", "reviewId", "r1"))).isEmpty();
    assertThat(products.read(sku("p1")).orElseThrow().etag()).isEqualTo(p1.etag());

    var results =
        shop.transaction()
            .create(REVIEWS, new Review("p1", "r1", 5))
            .patch(PRODUCTS, sku("p1"), Changes.set("price", 1000), Condition.ifMatch(p1.etag()))
            .check(PRODUCTS, sku("p2"), null)
            .commit();
    assertThat(results.get(0).value()).isEqualTo(new Review("p1", "r1", 5));
    assertThat(results.get(1).value()).isEqualTo(new Product("p1", "tea", "Sencha", 1000, null));
    assertThat(results.get(2)).isNull();
  }

  @Test
  void itemsOfOneEntityNeverAppearInAnothersQueries() {
    products.create(new Product("p1", "tea", "Sencha", 900, null));
    reviews.create(new Review("p1", "r1", 5));
    assertThat(db.table("Shop").query(Query.partition("$shop#item#sku_p1")).items()).hasSize(2);
    assertThat(reviews.query("bySku", sku("p1")).all()).containsExactly(new Review("p1", "r1", 5));
    assertThat(products.query("bySku", sku("p1")).all())
        .extracting(Product::sku)
        .containsExactly("p1");
  }

  private static List<Long> prices(EntityQuery<Product> q) {
    return q.all().stream().map(Product::price).toList();
  }
}
