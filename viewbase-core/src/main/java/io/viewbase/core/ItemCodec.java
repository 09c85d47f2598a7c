package io.viewbase.core;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import io.viewbase.filter.Filters;
import io.viewbase.filter.PreparedFilter;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The stored form of an item's user properties: a compact, typed binary encoding. The identity
 * lives in the storage key and the version (which is also the timestamp) in the storage version, so
 * neither is repeated here.
 *
 * <pre>
 * item     := FORMAT(1) count:varint property*
 * property := name:string value
 * value    := tag:byte payload   (NULL, FALSE, TRUE: no payload; STRING, BINARY: varint length + bytes;
 *             INT32: zigzag varint; INT64, DOUBLE, DATETIME: 8 bytes big-endian; GUID: 16 bytes;
 *             OBJECT: count:varint property*; ARRAY: count:varint value*;
 *             DECIMAL: scale as a zigzag varint, then the unscaled value as varint length + its
 *             two's-complement bytes, big-endian, as {@link BigInteger#toByteArray} writes them)
 * </pre>
 *
 * Tags are never reused or renumbered: a stored item is read by the tags it was written with.
 * DECIMAL (12) came after the others, which kept their encodings byte for byte ({@code
 * ItemCodecStoredBytesTest} holds them).
 */
final class ItemCodec {
  static final byte FORMAT = 1;

  /** A view entry: the source item's identity, then the projected properties. */
  static final byte VIEW_FORMAT = 2;

  /** A decoded view entry. */
  record ViewValue(String sourcePartitionKey, String sourceId, Map<String, Value> properties) {}

  private static final byte NULL = 0;
  private static final byte STRING = 1;
  private static final byte FALSE = 2;
  private static final byte TRUE = 3;
  private static final byte INT32 = 4;
  private static final byte INT64 = 5;
  private static final byte DOUBLE = 6;
  private static final byte DATETIME = 7;
  private static final byte GUID = 8;
  private static final byte BINARY = 9;
  private static final byte OBJECT = 10;
  private static final byte ARRAY = 11;
  private static final byte DECIMAL = 12;

  private ItemCodec() {}

  static byte[] encode(Map<String, Value> properties) {
    ByteWriter out = new ByteWriter(64 + properties.size() * 24);
    out.writeByte(FORMAT);
    writeProperties(out, properties);
    return out.toByteArray();
  }

  static Map<String, Value> decode(byte[] bytes) {
    ByteReader in = new ByteReader(bytes);
    byte format = in.readByte();
    if (format == VIEW_FORMAT) {
      in.readString();
      in.readString();
    } else if (format != FORMAT) {
      throw new ViewbaseException(
          ErrorCode.InternalError, "Stored item has an unknown format " + format);
    }
    return readProperties(in, true);
  }

  /**
   * Only the named top-level properties of a stored item or view entry, for testing a filter
   * without building the whole item. The values of other names are walked over, not built; the walk
   * stops once every wanted name was found (an encoded item never repeats a name). A wanted name
   * the item lacks is absent from the result, as it is from {@link #decode}; the order of the
   * result is unspecified.
   */
  static Map<String, Value> decodeOnly(byte[] bytes, Names wanted) {
    return decodeOnly(bytes, 0, bytes.length, wanted);
  }

  /**
   * {@link #decodeOnly(byte[], Names)} of the encoded item in {@code buf[offset, offset + length)}.
   */
  static Map<String, Value> decodeOnly(byte[] buf, int offset, int length, Names wanted) {
    ByteReader in = new ByteReader(buf, offset, offset + length);
    int count = readPropertyCount(in);
    Map<String, Value> found = null;
    int left = wanted.size();
    for (int i = 0; i < count && left > 0; i++) {
      int nameLength = in.readVarint();
      in.need(nameLength);
      int match = wanted.indexOf(in.buf, in.pos, nameLength);
      in.pos += nameLength;
      if (match < 0) {
        skipValue(in);
      } else if (wanted.size() == 1) {
        return Map.of(
            wanted.name(match), readValue(in)); // the common case, one name: no hash map to fill
      } else {
        if (found == null) {
          found = new HashMap<>(4);
        }
        found.put(wanted.name(match), readValue(in));
        left--;
      }
    }
    return found == null ? Map.of() : found;
  }

  /**
   * Reads a stored item's or view entry's header (a view entry's source identity is skipped): the
   * reader is then at the first property; returns how many there are.
   */
  private static int readPropertyCount(ByteReader in) {
    byte format = in.readByte();
    if (format == VIEW_FORMAT) {
      in.skip(in.readVarint());
      in.skip(in.readVarint());
    } else if (format != FORMAT) {
      throw new ViewbaseException(
          ErrorCode.InternalError, "Stored item has an unknown format " + format);
    }
    return in.readVarint();
  }

  /**
   * A stored item or view entry as a prepared filter reads it, in place: {@link #of} walks the
   * encoding once to find where the value of each name the filter reads starts (the walk stops when
   * all are found, as {@link #decodeOnly}'s does); {@link #value} decodes one when asked, and
   * {@link #compareString} compares a stored string's UTF-8 bytes with a literal's without decoding
   * it. One row serves one scan on one thread, reset for each entry.
   */
  static final class FilterRow implements PreparedFilter.Row {
    private final Names names;

    /** Where each name's value (its tag) starts in {@link #buf}, or -1 when the item lacks it. */
    private final int[] at;

    private byte[] buf;
    private int limit;
    private String partitionKey;
    private String id;
    private Instant timestamp;

    /** A row for the names of {@link PreparedFilter#properties()}, in that order. */
    FilterRow(List<String> names) {
      this.names = Names.of(names);
      this.at = new int[this.names.size()];
    }

    /**
     * This row, now on the encoded item in {@code buf[offset, offset + length)} and the given
     * system values (null when the filter does not read them).
     */
    FilterRow of(
        byte[] buf, int offset, int length, String partitionKey, String id, Instant timestamp) {
      this.buf = buf;
      this.limit = offset + length;
      this.partitionKey = partitionKey;
      this.id = id;
      this.timestamp = timestamp;
      Arrays.fill(at, -1);
      int left = at.length;
      if (left == 0) {
        return this;
      }
      ByteReader in = new ByteReader(buf, offset, limit);
      int count = readPropertyCount(in);
      // The walk keeps its position in a local and reads a one-byte name length in line: it runs
      // once per scanned entry, often in a fresh server's first-tier compiled code, which inlines
      // little; anything unusual (a longer varint, a truncated item) goes through the reader.
      int p = in.pos;
      for (int i = 0; i < count; i++) {
        int nameLength;
        if (p < limit && buf[p] >= 0) {
          nameLength = buf[p++];
        } else {
          in.pos = p;
          nameLength = in.readVarint();
          p = in.pos;
        }
        if (nameLength > limit - p) {
          in.pos = p;
          in.need(nameLength);
        }
        int match = names.indexOf(buf, p, nameLength);
        p += nameLength;
        if (match >= 0 && at[match] < 0) {
          at[match] = p;
          if (--left == 0) {
            break;
          }
        }
        p = skipValue(buf, p, in);
      }
      return this;
    }

    /**
     * The position after the value whose tag is at {@code buf[p]}: the common fixed-size values and
     * short strings in line, the rest (and every malformed value) by {@link
     * ItemCodec#skipValue(ByteReader)}, the one that knows every tag.
     */
    private int skipValue(byte[] buf, int p, ByteReader in) {
      if (p + 1 < limit) {
        byte tag = buf[p];
        if (tag == STRING && buf[p + 1] >= 0) {
          int end = p + 2 + buf[p + 1];
          if (end <= limit) {
            return end;
          }
        } else if (tag == NULL || tag == FALSE || tag == TRUE) {
          return p + 1;
        } else if ((tag == INT64 || tag == DOUBLE || tag == DATETIME) && p + 9 <= limit) {
          return p + 9;
        }
      }
      in.pos = p;
      ItemCodec.skipValue(in);
      return in.pos;
    }

    @Override
    public String partitionKey() {
      return partitionKey;
    }

    @Override
    public String id() {
      return id;
    }

    @Override
    public Instant timestamp() {
      return timestamp;
    }

    @Override
    public Value value(int index) {
      int p = at[index];
      return p < 0 ? null : readValue(new ByteReader(buf, p, limit));
    }

    @Override
    public int compareString(int index, byte[] literalUtf8) {
      int p = at[index];
      if (p < 0 || buf[p] != STRING) {
        return NOT_A_STRING;
      }
      ByteReader in = new ByteReader(buf, p + 1, limit);
      int length = in.readVarint();
      in.need(length);
      return Filters.compareUtf8(buf, in.pos, length, literalUtf8);
    }
  }

  /**
   * Property names to pick out of stored items, held with their UTF-8 bytes to compare in place.
   */
  static final class Names {
    private final String[] names;
    private final byte[][] utf8;

    /** The UTF-8 bytes of the one name when there is one (the common case), else null. */
    private final byte[] only;

    private Names(String[] names) {
      this.names = names;
      this.utf8 = new byte[names.length][];
      for (int i = 0; i < names.length; i++) {
        utf8[i] = names[i].getBytes(StandardCharsets.UTF_8);
      }
      this.only = names.length == 1 ? utf8[0] : null;
    }

    static Names of(Collection<String> names) {
      return new Names(names.stream().distinct().toArray(String[]::new));
    }

    int size() {
      return names.length;
    }

    String name(int index) {
      return names[index];
    }

    /** The index of the name whose UTF-8 bytes are {@code buf[offset, offset + length)}, or -1. */
    int indexOf(byte[] buf, int offset, int length) {
      if (only != null) { // one name: no loop
        return only.length == length && sameBytes(only, buf, offset, length) ? 0 : -1;
      }
      for (int i = 0; i < utf8.length; i++) {
        byte[] name = utf8[i];
        if (name.length == length && sameBytes(name, buf, offset, length)) {
          return i;
        }
      }
      return -1;
    }

    /**
     * Whether {@code buf[offset, offset + length)} holds {@code name} (of that length). Names are
     * short and most candidates differ in their first or last byte, so those go first and a plain
     * loop does the rest: cheaper than {@code Arrays.equals}' vectorized mismatch on a few bytes.
     */
    private static boolean sameBytes(byte[] name, byte[] buf, int offset, int length) {
      if (length == 0) {
        return true;
      }
      if (name[0] != buf[offset] || name[length - 1] != buf[offset + length - 1]) {
        return false;
      }
      for (int j = 1; j < length - 1; j++) {
        if (name[j] != buf[offset + j]) {
          return false;
        }
      }
      return true;
    }
  }

  static byte[] encodeView(
      String sourcePartitionKey, String sourceId, Map<String, Value> properties) {
    ByteWriter out = new ByteWriter(64 + properties.size() * 24);
    out.writeByte(VIEW_FORMAT);
    out.writeString(sourcePartitionKey);
    out.writeString(sourceId);
    writeProperties(out, properties);
    return out.toByteArray();
  }

  static boolean isView(byte[] bytes) {
    return bytes.length > 0 && bytes[0] == VIEW_FORMAT;
  }

  static ViewValue decodeView(byte[] bytes) {
    ByteReader in = new ByteReader(bytes);
    if (in.readByte() != VIEW_FORMAT) {
      throw new ViewbaseException(ErrorCode.InternalError, "Stored entry is not a view entry");
    }
    String sourcePartitionKey = in.readString();
    String sourceId = in.readString();
    return new ViewValue(sourcePartitionKey, sourceId, readProperties(in, true));
  }

  private static void writeProperties(ByteWriter out, Map<String, Value> properties) {
    out.writeVarint(properties.size());
    for (Map.Entry<String, Value> e : properties.entrySet()) {
      out.writeString(e.getKey());
      writeValue(out, e.getValue());
    }
  }

  private static void writeValue(ByteWriter out, Value value) {
    // Java 17 has no pattern switch; the type enum keeps this exhaustive and fast.
    switch (value.type()) {
      case NULL -> out.writeByte(NULL);
      case STRING -> {
        out.writeByte(STRING);
        out.writeString(((Value.Str) value).value());
      }
      case BOOLEAN -> out.writeByte(((Value.Bool) value).value() ? TRUE : FALSE);
      case INT32 -> {
        int i = ((Value.Int32) value).value();
        out.writeByte(INT32);
        out.writeVarint((i << 1) ^ (i >> 31));
      }
      case INT64 -> {
        out.writeByte(INT64);
        out.writeLong(((Value.Int64) value).value());
      }
      case DOUBLE -> {
        out.writeByte(DOUBLE);
        out.writeLong(java.lang.Double.doubleToRawLongBits(((Value.Double) value).value()));
      }
      case DECIMAL -> {
        BigDecimal d = ((Value.Decimal) value).value();
        byte[] unscaled = d.unscaledValue().toByteArray();
        out.writeByte(DECIMAL);
        out.writeVarint((d.scale() << 1) ^ (d.scale() >> 31));
        out.writeVarint(unscaled.length);
        out.writeBytes(unscaled);
      }
      case DATETIME -> {
        out.writeByte(DATETIME);
        out.writeLong(((Value.DateTime) value).ticks());
      }
      case GUID -> {
        UUID g = ((Value.Guid) value).value();
        out.writeByte(GUID);
        out.writeLong(g.getMostSignificantBits());
        out.writeLong(g.getLeastSignificantBits());
      }
      case BINARY -> {
        byte[] bytes = ((Value.Binary) value).value();
        out.writeByte(BINARY);
        out.writeVarint(bytes.length);
        out.writeBytes(bytes);
      }
      case OBJECT -> {
        out.writeByte(OBJECT);
        writeProperties(out, ((Value.Obj) value).properties());
      }
      case ARRAY -> {
        List<Value> elements = ((Value.Arr) value).elements();
        out.writeByte(ARRAY);
        out.writeVarint(elements.size());
        for (Value v : elements) {
          writeValue(out, v);
        }
      }
    }
  }

  /**
   * An item's properties, or an object value's ({@code topLevel} false). A top-level name comes
   * from {@link PropertyNames}: a table's items repeat a few names, and the nested objects' keys
   * (ids, dates) are too many to keep.
   */
  private static Map<String, Value> readProperties(ByteReader in, boolean topLevel) {
    int count = in.readVarint();
    Map<String, Value> properties = new LinkedHashMap<>(Math.max(4, count * 4 / 3 + 1));
    for (int i = 0; i < count; i++) {
      String name = topLevel ? in.readName() : in.readString();
      properties.put(name, readValue(in));
    }
    return Collections.unmodifiableMap(properties);
  }

  private static Value readValue(ByteReader in) {
    byte tag = in.readByte();
    return switch (tag) {
      case NULL -> Value.Null.INSTANCE;
      case STRING -> new Value.Str(in.readString());
      case FALSE -> new Value.Bool(false);
      case TRUE -> new Value.Bool(true);
      case INT32 -> {
        int zz = in.readVarint();
        yield new Value.Int32((zz >>> 1) ^ -(zz & 1));
      }
      case INT64 -> new Value.Int64(in.readLong());
      case DOUBLE -> new Value.Double(java.lang.Double.longBitsToDouble(in.readLong()));
      case DECIMAL -> readDecimal(in);
      case DATETIME -> new Value.DateTime(in.readLong());
      case GUID -> new Value.Guid(new UUID(in.readLong(), in.readLong()));
      case BINARY -> new Value.Binary(in.readBytes(in.readVarint()));
      case OBJECT -> new Value.Obj(readProperties(in, false));
      case ARRAY -> {
        int n = in.readVarint();
        List<Value> elements = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
          elements.add(readValue(in));
        }
        yield new Value.Arr(elements);
      }
      default ->
          throw new ViewbaseException(
              ErrorCode.InternalError, "Stored item has an unknown value tag " + tag);
    };
  }

  private static Value readDecimal(ByteReader in) {
    int zz = in.readVarint();
    int scale = (zz >>> 1) ^ -(zz & 1);
    int length = in.readVarint();
    if (length == 0) {
      throw new ViewbaseException(ErrorCode.InternalError, "Stored item has a malformed decimal");
    }
    try {
      return new Value.Decimal(new BigDecimal(new BigInteger(in.readBytes(length)), scale));
    } catch (ViewbaseException beyondBounds) {
      throw new ViewbaseException(ErrorCode.InternalError, "Stored item has a malformed decimal");
    }
  }

  /**
   * Moves past one encoded value without building it; an unknown tag is corruption, as in a decode.
   */
  private static void skipValue(ByteReader in) {
    byte tag = in.readByte();
    switch (tag) {
      case NULL, FALSE, TRUE -> {}
      case STRING, BINARY -> in.skip(in.readVarint());
      case INT32 -> in.readVarint();
      case DECIMAL -> {
        in.readVarint();
        in.skip(in.readVarint());
      }
      case INT64, DOUBLE, DATETIME -> in.skip(8);
      case GUID -> in.skip(16);
      case OBJECT -> {
        int n = in.readVarint();
        for (int i = 0; i < n; i++) {
          in.skip(in.readVarint());
          skipValue(in);
        }
      }
      case ARRAY -> {
        int n = in.readVarint();
        for (int i = 0; i < n; i++) {
          skipValue(in);
        }
      }
      default ->
          throw new ViewbaseException(
              ErrorCode.InternalError, "Stored item has an unknown value tag " + tag);
    }
  }

  /** A growable big-endian byte buffer. */
  static final class ByteWriter {
    private byte[] buf;
    private int len;

    ByteWriter(int capacity) {
      buf = new byte[capacity];
    }

    private void ensure(int extra) {
      if (len + extra > buf.length) {
        buf = java.util.Arrays.copyOf(buf, Math.max(buf.length * 2, len + extra));
      }
    }

    void writeByte(int b) {
      ensure(1);
      buf[len++] = (byte) b;
    }

    void writeVarint(int v) {
      ensure(5);
      while ((v & ~0x7F) != 0) {
        buf[len++] = (byte) ((v & 0x7F) | 0x80);
        v >>>= 7;
      }
      buf[len++] = (byte) v;
    }

    void writeLong(long v) {
      ensure(8);
      for (int shift = 56; shift >= 0; shift -= 8) {
        buf[len++] = (byte) (v >>> shift);
      }
    }

    void writeBytes(byte[] bytes) {
      ensure(bytes.length);
      System.arraycopy(bytes, 0, buf, len, bytes.length);
      len += bytes.length;
    }

    void writeString(String s) {
      byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
      writeVarint(utf8.length);
      writeBytes(utf8);
    }

    byte[] toByteArray() {
      return java.util.Arrays.copyOf(buf, len);
    }
  }

  /** Reads what {@link ByteWriter} wrote; a truncated buffer is corruption, reported as such. */
  static final class ByteReader {
    // read in place by ItemCodec#decodeOnly, which compares names without copying them
    private final byte[] buf;
    private int pos;

    /** Where the encoded bytes end in {@link #buf}. */
    private final int limit;

    ByteReader(byte[] buf) {
      this(buf, 0, buf.length);
    }

    /** Reads {@code buf[offset, limit)}. */
    ByteReader(byte[] buf, int offset, int limit) {
      this.buf = buf;
      this.pos = offset;
      this.limit = limit;
    }

    private void need(int n) {
      if (n < 0 || pos + n > limit) {
        throw new ViewbaseException(ErrorCode.InternalError, "Stored item is truncated");
      }
    }

    byte readByte() {
      need(1);
      return buf[pos++];
    }

    int readVarint() {
      int p = pos;
      if (p < limit
          && buf[p] >= 0) { // one byte, the usual case (counts, names and strings under 128)
        pos = p + 1;
        return buf[p];
      }
      return readLongerVarint();
    }

    private int readLongerVarint() {
      int result = 0;
      for (int shift = 0; shift < 35; shift += 7) {
        byte b = readByte();
        result |= (b & 0x7F) << shift;
        if (b >= 0) {
          return result;
        }
      }
      throw new ViewbaseException(ErrorCode.InternalError, "Stored item has a malformed varint");
    }

    long readLong() {
      need(8);
      long v = 0;
      for (int i = 0; i < 8; i++) {
        v = (v << 8) | (buf[pos++] & 0xFF);
      }
      return v;
    }

    void skip(int n) {
      need(n);
      pos += n;
    }

    byte[] readBytes(int n) {
      need(n);
      byte[] out = java.util.Arrays.copyOfRange(buf, pos, pos + n);
      pos += n;
      return out;
    }

    String readString() {
      int n = readVarint();
      need(n);
      String s = new String(buf, pos, n, StandardCharsets.UTF_8);
      pos += n;
      return s;
    }

    /** A string as {@link #readString}, looked up in {@link PropertyNames} first. */
    String readName() {
      int n = readVarint();
      need(n);
      String s = PropertyNames.decode(buf, pos, n);
      pos += n;
      return s;
    }
  }

  /**
   * Property names decoded once. Stored items repeat the same few names, so a read finds a name's
   * UTF-8 bytes here instead of decoding a new string each time, and the string it gets has its
   * hash already computed for the item's map. Direct-mapped, {@value #SLOTS} slots, names up to
   * {@value #MAX_BYTES} bytes; racy by design: a slot holds an immutable entry, replaced whole, and
   * a lookup compares the bytes, so a slot another name took over costs only a decode.
   */
  static final class PropertyNames {
    static final int SLOTS = 1024;
    static final int MAX_BYTES = 64;

    private record Entry(byte[] utf8, String name) {}

    private static final Entry[] ENTRIES = new Entry[SLOTS];

    private PropertyNames() {}

    /**
     * The string of {@code bytes[from, from + length)}, UTF-8, as {@code new String} decodes it.
     */
    static String decode(byte[] bytes, int from, int length) {
      if (length > MAX_BYTES) {
        return new String(bytes, from, length, StandardCharsets.UTF_8);
      }
      int h = length;
      for (int i = from; i < from + length; i++) {
        h = 31 * h + bytes[i];
      }
      int slot = (h ^ (h >>> 15)) & (SLOTS - 1);
      Entry e = ENTRIES[slot];
      if (e != null && Arrays.equals(e.utf8, 0, e.utf8.length, bytes, from, from + length)) {
        return e.name;
      }
      String name = new String(bytes, from, length, StandardCharsets.UTF_8);
      ENTRIES[slot] = new Entry(Arrays.copyOfRange(bytes, from, from + length), name);
      return name;
    }
  }
}
