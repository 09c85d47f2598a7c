package io.viewbase.storage.spi;

import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The shape every batch must have before its conditions are even looked at; backends call {@link
 * #validate} first.
 */
public final class BatchRules {
  private BatchRules() {}

  /**
   * Fails with {@link IllegalArgumentException} naming the offending mutation if the batch is
   * empty, has a null part, or names one (partition, key) twice; appends to one sequence may
   * repeat, but no other mutation may name the sequence's own key.
   */
  public static void validate(List<Mutation> batch) {
    if (batch == null || batch.isEmpty()) {
      throw new IllegalArgumentException("a batch needs at least one mutation");
    }
    Set<ByteBuffer> seen = new HashSet<>();
    Set<ByteBuffer> sequences = new HashSet<>();
    for (int i = 0; i < batch.size(); i++) {
      Mutation m = batch.get(i);
      if (m == null
          || m.partition() == null
          || m.key() == null
          || m.condition() == null
          || (m instanceof Mutation.Put put && put.value() == null)
          || (m instanceof Mutation.Append append && append.value() == null)) {
        throw new IllegalArgumentException("mutation " + i + " of the batch has a null part: " + m);
      }
      ByteBuffer encoded = ByteBuffer.wrap(OrderedKeyCodec.encode(m.partition(), m.key()));
      // a sequence may take several appends, but its key nothing else
      boolean repeated;
      if (m instanceof Mutation.Append) {
        sequences.add(encoded);
        repeated = seen.contains(encoded);
      } else {
        repeated = !seen.add(encoded) || sequences.contains(encoded);
      }
      if (repeated) {
        throw new IllegalArgumentException(
            "mutation "
                + i
                + " names partition "
                + Bytes.toDisplay(m.partition())
                + " key "
                + Bytes.toDisplay(m.key())
                + " a second time; a batch may name a key once");
      }
    }
  }
}
