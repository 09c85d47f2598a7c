package io.viewbase.server.dynamodb.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link JsonTree#write} writes exactly the bytes Jackson's UTF-8 generator writes for the same
 * tree (it did, before it wrote them itself): random answer trees with every attribute type, nested
 * documents and strings of every kind of character, compared byte for byte with a reference writer
 * on Jackson's generator.
 */
class JsonTreeWriteTest {
  private static final JsonFactory JACKSON = new JsonFactory();

  @Test
  void randomTreesAreWrittenAsJacksonWritesThem() {
    Random random = new Random(20261204L);
    for (int i = 0; i < 3_000; i++) {
      Object tree = tree(random, 0);
      assertThat(JsonTree.write(tree)).as("tree %d: %s", i, tree).isEqualTo(jackson(tree));
    }
  }

  @Test
  void everyCharacterOfTheBasicPlaneIsWrittenAsJacksonWritesIt() {
    StringBuilder all = new StringBuilder();
    for (char c = 0; c < Character.MAX_VALUE; c++) {
      all.append(c);
    }
    all.append("\uD83D\uDE00 and a lone \uDC00");
    Map<String, Object> tree = new LinkedHashMap<>();
    tree.put(all.toString(), new AttributeValue.S(all.toString()));
    assertThat(JsonTree.write(tree)).isEqualTo(jackson(tree));
  }

  @Test
  void numbersAtTheEdgesOfTheDigitByDigitPathAreWrittenAsTheirText() {
    List<Object> numbers = new ArrayList<>();
    for (long n :
        new long[] {
          0,
          1,
          -1,
          9,
          10,
          100,
          -100,
          999_999_999_999_999_999L,
          -999_999_999_999_999_999L,
          1_000_000_000_000_000_000L,
          -1_000_000_000_000_000_001L,
          Long.MAX_VALUE,
          Long.MIN_VALUE
        }) {
      numbers.add(AttributeValue.N.of(n));
    }
    numbers.add(AttributeValue.N.parse("12345678901234567890123456789012345678"));
    numbers.add(AttributeValue.N.parse("-0.000001"));
    numbers.add(AttributeValue.N.parse("1.50"));
    assertThat(new String(JsonTree.write(numbers), java.nio.charset.StandardCharsets.UTF_8))
        .isEqualTo(new String(jackson(numbers), java.nio.charset.StandardCharsets.UTF_8))
        .contains("{\"N\":\"-9223372036854775808\"}", "{\"N\":\"100\"}", "{\"N\":\"1.5\"}");
  }

  @Test
  void anAnswerIsWrittenWholeAfterAnotherOnTheSameThread() {
    byte[] big = JsonTree.write(Map.of("S", "x".repeat(200_000)));
    byte[] small = JsonTree.write(List.of(new AttributeValue.S("y")));

    assertThat(big).hasSize(200_008);
    assertThat(new String(small, java.nio.charset.StandardCharsets.UTF_8))
        .isEqualTo("[{\"S\":\"y\"}]");
  }

  private static Object tree(Random random, int depth) {
    int kind = random.nextInt(depth > 3 ? 6 : 10);
    switch (kind) {
      case 0:
        return null;
      case 1:
        return text(random);
      case 2:
        return random.nextBoolean();
      case 3:
        return switch (random.nextInt(4)) {
          case 0 -> random.nextInt();
          case 1 -> random.nextLong();
          case 2 -> new BigDecimal(random.nextLong()).scaleByPowerOfTen(random.nextInt(80) - 40);
          default -> random.nextDouble() * 1e6;
        };
      case 4, 5:
        return attribute(random, depth + 1);
      case 6, 7:
        {
          Map<String, Object> map = new LinkedHashMap<>();
          int n = random.nextInt(5);
          for (int i = 0; i < n; i++) {
            map.put(text(random), tree(random, depth + 1));
          }
          return map;
        }
      case 8:
        {
          List<Object> list = new ArrayList<>();
          int n = random.nextInt(5);
          for (int i = 0; i < n; i++) {
            list.add(tree(random, depth + 1));
          }
          return list;
        }
      default:
        {
          Object[] array = new Object[random.nextInt(4)];
          for (int i = 0; i < array.length; i++) {
            array[i] = tree(random, depth + 1);
          }
          return array;
        }
    }
  }

  private static AttributeValue attribute(Random random, int depth) {
    int kind = random.nextInt(depth > 4 ? 5 : 10);
    switch (kind) {
      case 0:
        return new AttributeValue.S(text(random));
      case 1:
        // whole numbers of every length, negatives among them (written digit by digit up to 18
        // digits), and decimals and powers of ten (written through their BigDecimal text)
        return random.nextBoolean()
            ? AttributeValue.N.of(random.nextLong() >> random.nextInt(64))
            : new AttributeValue.N(
                new BigDecimal(random.nextInt(1_000_000) - 500_000)
                    .scaleByPowerOfTen(random.nextInt(20) - 10));
      case 2:
        return new AttributeValue.B(bytes(random));
      case 3:
        return random.nextBoolean() ? AttributeValue.Bool.TRUE : AttributeValue.Bool.FALSE;
      case 4:
        return AttributeValue.Null.INSTANCE;
      case 5:
        {
          Map<String, AttributeValue> m = new LinkedHashMap<>();
          int n = random.nextInt(4);
          for (int i = 0; i < n; i++) {
            m.put(text(random), attribute(random, depth + 1));
          }
          return new AttributeValue.M(m);
        }
      case 6:
        {
          List<AttributeValue> l = new ArrayList<>();
          int n = random.nextInt(4);
          for (int i = 0; i < n; i++) {
            l.add(attribute(random, depth + 1));
          }
          return new AttributeValue.L(l);
        }
      case 7:
        {
          Set<String> ss = new LinkedHashSet<>();
          int n = 1 + random.nextInt(3);
          for (int i = 0; i < n; i++) {
            ss.add(text(random) + i);
          }
          return new AttributeValue.SS(ss);
        }
      case 8:
        {
          Set<BigDecimal> ns = new LinkedHashSet<>();
          int n = 1 + random.nextInt(3);
          for (int i = 0; i < n; i++) {
            ns.add(
                new BigDecimal(random.nextInt(10_000) * 10 + i).movePointLeft(random.nextInt(5)));
          }
          return new AttributeValue.NS(ns);
        }
      default:
        {
          Set<AttributeValue.B> bs = new LinkedHashSet<>();
          int n = 1 + random.nextInt(3);
          for (int i = 0; i < n; i++) {
            byte[] b = bytes(random);
            b = java.util.Arrays.copyOf(b, b.length + 1);
            b[b.length - 1] = (byte) i;
            bs.add(new AttributeValue.B(b));
          }
          return new AttributeValue.BS(bs);
        }
    }
  }

  /** Text of ASCII, controls, quotes, backslashes, Latin-1, CJK, pairs and lone surrogates. */
  private static String text(Random random) {
    StringBuilder sb = new StringBuilder();
    int n = random.nextInt(12);
    for (int i = 0; i < n; i++) {
      switch (random.nextInt(9)) {
        case 0 -> sb.append((char) random.nextInt(0x20));
        case 1 -> sb.append(random.nextBoolean() ? '"' : '\\');
        case 2 -> sb.append((char) (0x80 + random.nextInt(0x780)));
        case 3 -> sb.append((char) (0x800 + random.nextInt(0xD000)));
        case 4 -> sb.append("\uD83D\uDE00");
        case 5 -> sb.append((char) (0xD800 + random.nextInt(0x800)));
        case 6 -> sb.append((char) (0xE000 + random.nextInt(0x2000)));
        default -> sb.append((char) (0x20 + random.nextInt(0x60)));
      }
    }
    return sb.toString();
  }

  private static byte[] bytes(Random random) {
    byte[] b = new byte[random.nextInt(8)];
    random.nextBytes(b);
    return b;
  }

  /** The tree as Jackson's UTF-8 generator writes it: the writer JsonTree used until 12-04. */
  private static byte[] jackson(Object tree) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator g = JACKSON.createGenerator(out)) {
      write(g, tree);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  private static void write(JsonGenerator g, Object tree) throws IOException {
    if (tree == null) {
      g.writeNull();
    } else if (tree instanceof String s) {
      g.writeString(s);
    } else if (tree instanceof Boolean b) {
      g.writeBoolean(b);
    } else if (tree instanceof BigDecimal d) {
      g.writeNumber(d);
    } else if (tree instanceof Integer || tree instanceof Long) {
      g.writeNumber(((Number) tree).longValue());
    } else if (tree instanceof Number n) {
      g.writeNumber(new BigDecimal(n.toString()));
    } else if (tree instanceof AttributeValue v) {
      write(g, v);
    } else if (tree instanceof Map<?, ?> map) {
      g.writeStartObject();
      for (Map.Entry<?, ?> e : map.entrySet()) {
        g.writeFieldName((String) e.getKey());
        write(g, e.getValue());
      }
      g.writeEndObject();
    } else if (tree instanceof Collection<?> c) {
      g.writeStartArray();
      for (Object element : c) {
        write(g, element);
      }
      g.writeEndArray();
    } else {
      g.writeStartArray();
      for (Object element : (Object[]) tree) {
        write(g, element);
      }
      g.writeEndArray();
    }
  }

  private static void write(JsonGenerator g, AttributeValue value) throws IOException {
    g.writeStartObject();
    g.writeFieldName(value.type());
    if (value instanceof AttributeValue.S s) {
      g.writeString(s.value());
    } else if (value instanceof AttributeValue.N n) {
      g.writeString(n.text());
    } else if (value instanceof AttributeValue.B b) {
      g.writeString(b.base64());
    } else if (value instanceof AttributeValue.Bool b) {
      g.writeBoolean(b.value());
    } else if (value instanceof AttributeValue.Null) {
      g.writeBoolean(true);
    } else if (value instanceof AttributeValue.M m) {
      g.writeStartObject();
      for (Map.Entry<String, AttributeValue> e : m.value().entrySet()) {
        g.writeFieldName(e.getKey());
        write(g, e.getValue());
      }
      g.writeEndObject();
    } else if (value instanceof AttributeValue.L l) {
      g.writeStartArray();
      for (AttributeValue v : l.value()) {
        write(g, v);
      }
      g.writeEndArray();
    } else if (value instanceof AttributeValue.SS ss) {
      g.writeStartArray();
      for (String member : ss.value()) {
        g.writeString(member);
      }
      g.writeEndArray();
    } else if (value instanceof AttributeValue.NS ns) {
      g.writeStartArray();
      for (String member : ns.texts()) {
        g.writeString(member);
      }
      g.writeEndArray();
    } else {
      g.writeStartArray();
      for (AttributeValue.B member : ((AttributeValue.BS) value).value()) {
        g.writeString(member.base64());
      }
      g.writeEndArray();
    }
    g.writeEndObject();
  }
}
