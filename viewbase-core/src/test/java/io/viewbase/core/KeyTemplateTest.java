package io.viewbase.core;

import static io.viewbase.core.DatabaseContract.assertCode;
import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.KeyText;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class KeyTemplateTest {
  private static final Map<String, Value> PERSON =
      Map.ofEntries(
          Map.entry("first", Value.of("Ann")),
          Map.entry("last", Value.of("Lee")),
          Map.entry("email", Value.of("Ann@Example.COM")),
          Map.entry("age", Value.of(42)),
          Map.entry("debt", Value.of(-42)),
          Map.entry("big", Value.of(1L << 40)),
          Map.entry("score", Value.of(1.5)),
          Map.entry("active", Value.of(true)),
          Map.entry("born", Value.of(Instant.parse("2001-02-03T04:05:06.7Z"))),
          Map.entry("guid", Value.of(UUID.fromString("0F8FAD5B-D9CB-469F-A165-70867728950E"))),
          Map.entry("nothing", Value.nullValue()),
          Map.entry("price", Value.of(new BigDecimal("12.50"))),
          Map.entry("blob", Value.of(new byte[] {0x0a})),
          Map.entry("nan", Value.of(Double.NaN)));

  private static String render(String template) {
    return KeyTemplate.parse(template, "idBy").render("pk1", "id1", PERSON);
  }

  @Test
  void renderSubstitutesPropertiesAndIdentity() {
    assertThat(render("{last}#{first}")).isEqualTo("Lee#Ann");
    assertThat(render("organization#{partitionKey}/{id}")).isEqualTo("organization#pk1/id1");
    assertThat(render("all")).isEqualTo("all");
    assertThat(render("{{literal}}{first}")).isEqualTo("{literal}Ann");
  }

  @Test
  void renderPadsIntegersAfterTheSignAndKeepsCaseUnlessAsked() {
    assertThat(render("{age:08}")).isEqualTo("00000042");
    assertThat(render("{debt:06}")).isEqualTo("-00042");
    assertThat(render("{big:04}")).isEqualTo("1099511627776");
    assertThat(render("{email}")).isEqualTo("Ann@Example.COM");
    assertThat(render("{email|lower}")).isEqualTo("ann@example.com");
    assertThat(render("{first|upper}")).isEqualTo("ANN");
  }

  @Test
  void renderWritesEveryScalarType() {
    assertThat(render("{score}|{active}|{born}|{guid}"))
        .isEqualTo("1.5|true|2001-02-03T04:05:06.7000000Z|0f8fad5b-d9cb-469f-a165-70867728950e");
  }

  @Test
  void renderOfAMissingOrNullPropertyIsNull() {
    assertThat(render("{missing}")).isNull();
    assertThat(render("x{nothing}")).isNull();
  }

  @Test
  void parseRejectsMalformedTemplatesNamingThePosition() {
    for (String bad :
        new String[] {"", "{open", "close}", "{}", "{a:x}", "{a:123}", "{a|title}", "{a{b}"}) {
      assertCode(() -> KeyTemplate.parse(bad, "idBy"), ErrorCode.InvalidView);
    }
  }

  @Test
  void renderWritesADecimalInPlainText() {
    assertThat(render("{price}")).isEqualTo("12.5");
  }

  @Test
  void keyRendersTheSortableTextOfPropertiesAndIdentity() {
    assertThat(render("{age|key}")).isEqualTo(KeyText.sortable(Value.of(42)));
    assertThat(render("{price|key}#{first|key}")).isEqualTo("!>502125 #Ann ");
    assertThat(render("{blob|key}")).isEqualTo("!#0a ");
    assertThat(render("{partitionKey|key}{id|key}")).isEqualTo("pk1 id1 ");
    assertThat(KeyTemplate.parse("{id|key}", "idBy").render("p", "a b", Map.of()))
        .isEqualTo("a!`b ");
  }

  @Test
  void keyOfAValueWithoutSortableTextKeepsTheItemOut() {
    for (String name : new String[] {"active", "born", "guid", "nothing", "nan", "missing"}) {
      assertThat(render("x{" + name + "|key}")).as(name).isNull();
    }
  }

  @Test
  void keyTakesNoWidthAndNoCase() {
    for (String bad : new String[] {"{age:08|key}", "{age|key|lower}", "{age|upper|key}"}) {
      assertCode(() -> KeyTemplate.parse(bad, "idBy"), ErrorCode.InvalidView);
    }
    try {
      KeyTemplate.parse("{age:08|key}", "idBy");
    } catch (ViewbaseException e) {
      assertThat(e.getMessage()).contains("gives |key a width");
      assertThat(e.context()).containsEntry("field", "idBy").containsEntry("position", 0);
    }
    try {
      KeyTemplate.parse("a{age|key|lower}", "partitionBy");
    } catch (ViewbaseException e) {
      assertThat(e.getMessage()).contains("combines |key with another transform");
      assertThat(e.context()).containsEntry("position", 1);
    }
  }

  @Test
  void renderPrefixTakesOnlyLiteralsThatEveryEqualValueRendersAlike() {
    KeyTemplate key = KeyTemplate.parse("{n|key}{id|key}", "idBy");
    KeyTemplate plain = KeyTemplate.parse("{n}#{id}", "idBy");
    for (Value five :
        new Value[] {Value.of(5), Value.of(5L), Value.of(5.0), Value.of(new BigDecimal("5.0"))}) {
      KeyTemplate.Prefix p = key.renderPrefix(null, null, Map.of("n", five));
      assertThat(p.text()).isEqualTo("!>5015 ");
      assertThat(p.complete()).isFalse();
      assertThat(p.restIsIdentity()).isTrue();
      assertThat(plain.renderPrefix(null, null, Map.of("n", five)).text()).isEmpty();
    }
    assertThat(key.renderPrefix(null, "x", Map.of("n", Value.of("a"))))
        .isEqualTo(new KeyTemplate.Prefix("a x ", true, true));
    assertThat(key.renderPrefix(null, null, Map.of("n", Value.of(true))).text()).isEmpty();
    assertThat(key.renderPrefix(null, null, Map.of("n", Value.of(Double.NaN))).text()).isEmpty();
    assertThat(plain.renderPrefix(null, null, Map.of("n", Value.of("a"))).text()).isEqualTo("a#");
  }
}
