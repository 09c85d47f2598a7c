package io.viewbase.server.dynamodb.expr;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Stability;
import io.viewbase.api.ViewbaseException;
import io.viewbase.server.dynamodb.model.AttributeValue;
import io.viewbase.server.dynamodb.model.AttributeValues;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A parsed UpdateExpression (or legacy AttributeUpdates): actions that make an item's new version
 * from its current one.
 *
 * <pre>
 * action                 | effect
 * -----------------------+--------------------------------------------------------------------
 * SET p = v              | p becomes v; v is :value, a path, if_not_exists(path, v),
 *                        |   list_append(v, v), or v + v / v - v on numbers
 * SET l[i] = v, i beyond | v is appended (several appends in index order)
 * REMOVE p               | p goes; a map key or list index that is absent is no error
 * ADD p :n / ADD p :set  | a number is added to p (absent: p becomes :n); a set's members are
 *                        |   added to p's set of the same type (absent: p becomes :set)
 * DELETE p :set          | the members are taken from p's set; an emptied set is removed;
 *                        |   an absent p is no error
 * </pre>
 *
 * Every value is read from the current item, before any action writes (so {@code SET a = :v, b = a}
 * copies a's old value), and list indexes are those of the current item ({@code REMOVE a[1] SET
 * a[3] = :v} sets the element that was fourth). Writing below a map key or list element that does
 * not exist, or into a value that is no map or list, is refused (but REMOVE below a top-level
 * attribute of an item that does not exist yet is no error, as in DynamoDB).
 *
 * <pre>
 * refusal at apply                                 | message
 * -------------------------------------------------+--------------------------------------------
 * a key attribute written                          | One or more parameter values were invalid:
 *                                                  |   Cannot update attribute pk. This attribute
 *                                                  |   is part of the key
 * a path read that has no value                    | The provided expression refers to an
 *                                                  |   attribute that does not exist in the item
 * + on a non-number, ADD to a value of another     | An operand in the update expression has an
 *   type, list_append of a non-list, ...           |   incorrect data type
 * a write below a missing or wrong-typed parent    | The document path provided in the update
 *                                                  |   expression is invalid for update
 * arithmetic beyond 38 digits or 1E+126            | Number overflow. Attempting to store a
 *                                                  |   number with magnitude larger than ...
 * </pre>
 */
@Stability(Stability.Level.EXPERIMENTAL)
public final class Update {
  static final String INVALID_PATH =
      "The document path provided in the update expression is invalid for update";
  static final String MISSING_ATTRIBUTE =
      "The provided expression refers to an attribute that does not exist in the item";
  static final String WRONG_TYPE = "An operand in the update expression has an incorrect data type";

  /** One action, as parsed. */
  sealed interface Action permits SetAction, RemoveAction, AddAction, DeleteAction {
    Path path();
  }

  record SetAction(Path path, Value value) implements Action {}

  record RemoveAction(Path path) implements Action {}

  /** ADD; {@code lists} also appends lists, as legacy AttributeUpdates' ADD does. */
  record AddAction(Path path, AttributeValue value, boolean lists) implements Action {}

  record DeleteAction(Path path, AttributeValue value) implements Action {}

  /** A SET action's value, computed from the current item. */
  sealed interface Value permits Read, Constant, IfNotExists, ListAppend, Arithmetic {}

  record Read(Path path) implements Value {}

  record Constant(AttributeValue value) implements Value {}

  record IfNotExists(Path path, Value otherwise) implements Value {}

  record ListAppend(Value first, Value second) implements Value {}

  record Arithmetic(boolean plus, Value left, Value right) implements Value {}

  /**
   * The outcome of applying an update: the new item and what the update wrote, for ReturnValues.
   *
   * @param item the new item
   * @param updatedAttributes the top-level attributes the actions wrote, in the expression's order
   * @param updatedPaths the paths the actions wrote
   */
  public record Result(
      Map<String, AttributeValue> item, Set<String> updatedAttributes, List<Path> updatedPaths) {
    /**
     * ReturnValues UPDATED_OLD: the written paths as they were in {@code before} (only those that
     * existed), nested maps and lists kept as a projection keeps them.
     */
    public Map<String, AttributeValue> updatedOld(Map<String, AttributeValue> before) {
      return new Projection(updatedPaths).apply(before == null ? Map.of() : before);
    }

    /** ReturnValues UPDATED_NEW: the written paths as they are in the new item. */
    public Map<String, AttributeValue> updatedNew() {
      return new Projection(updatedPaths).apply(item);
    }
  }

  private final List<Action> actions;

  Update(List<Action> actions) {
    this.actions = List.copyOf(actions);
  }

  /** The paths the update writes, in the expression's order. */
  public List<Path> paths() {
    return actions.stream().map(Action::path).toList();
  }

  /**
   * Refuses an update that writes a key attribute (or below one), before any item is read.
   *
   * @throws ViewbaseException InvalidInput "One or more parameter values were invalid: Cannot
   *     update attribute pk. This attribute is part of the key"
   */
  public void checkKeyAttributes(Set<String> keyAttributes) {
    for (Action action : actions) {
      if (keyAttributes.contains(action.path().attribute())) {
        throw invalid(
            "One or more parameter values were invalid: Cannot update attribute "
                + action.path().attribute()
                + ". This attribute is part of the key");
      }
    }
  }

  /**
   * Applies the update.
   *
   * @param current the item as stored, or null when there is none (UpdateItem then creates it)
   * @param key the request's Key: its names are the key attributes, and it is the item an absent
   *     one starts from
   * @return the new item (holding the key) and what was written
   * @throws ViewbaseException InvalidInput with DynamoDB's messages, as the table above
   */
  public Result apply(Map<String, AttributeValue> current, Map<String, AttributeValue> key) {
    checkKeyAttributes(key.keySet());
    boolean exists = current != null;
    Map<String, AttributeValue> before = exists ? current : key;
    // Values first, all read from the item as it was.
    List<AttributeValue> setValues = new ArrayList<>();
    List<SetAction> sets = new ArrayList<>();
    for (Action action : actions) {
      if (action instanceof SetAction set) {
        sets.add(set);
      }
    }
    sets.sort(Comparator.comparing(SetAction::path, DocumentWrites.pathOrder(false)));
    for (SetAction set : sets) {
      setValues.add(evaluate(set.value(), before));
    }
    Map<String, AttributeValue> after = new LinkedHashMap<>(before);
    for (int i = 0; i < sets.size(); i++) {
      DocumentWrites.setAt(after, sets.get(i).path(), setValues.get(i));
    }
    List<Path> removals = new ArrayList<>();
    for (Action action : actions) {
      if (action instanceof AddAction add) {
        add(after, add, before);
      } else if (action instanceof DeleteAction delete) {
        delete(after, delete, before, exists);
      } else if (action instanceof RemoveAction remove) {
        removals.add(remove.path());
      }
    }
    // Highest indexes first, so each removal finds the element the expression meant.
    removals.sort(DocumentWrites.pathOrder(true));
    for (Path path : removals) {
      DocumentWrites.removeAt(after, path, exists);
    }
    Set<String> updated = new LinkedHashSet<>();
    for (Action action : actions) {
      updated.add(action.path().attribute());
    }
    for (String name : updated) {
      AttributeValue v = after.get(name);
      if (v != null && DocumentWrites.depth(v) > AttributeValues.MAX_NESTING) {
        throw invalid(
            "Nesting Levels have exceeded supported limits: Attributes in the item have nested"
                + " levels beyond supported limit");
      }
    }
    return new Result(
        Collections.unmodifiableMap(after), Collections.unmodifiableSet(updated), paths());
  }

  private static AttributeValue evaluate(Value value, Map<String, AttributeValue> item) {
    if (value instanceof Constant c) {
      return c.value();
    } else if (value instanceof Read r) {
      return r.path().get(item).orElseThrow(() -> invalid(MISSING_ATTRIBUTE));
    } else if (value instanceof IfNotExists f) {
      AttributeValue existing = f.path().get(item).orElse(null);
      return existing != null ? existing : evaluate(f.otherwise(), item);
    } else if (value instanceof ListAppend f) {
      AttributeValue first = evaluate(f.first(), item);
      AttributeValue second = evaluate(f.second(), item);
      if (!(first instanceof AttributeValue.L a) || !(second instanceof AttributeValue.L b)) {
        throw invalid(WRONG_TYPE);
      }
      List<AttributeValue> joined = new ArrayList<>(a.value());
      joined.addAll(b.value());
      return new AttributeValue.L(joined);
    }
    Arithmetic f = (Arithmetic) value;
    AttributeValue left = evaluate(f.left(), item);
    AttributeValue right = evaluate(f.right(), item);
    if (!(left instanceof AttributeValue.N a) || !(right instanceof AttributeValue.N b)) {
      throw invalid(WRONG_TYPE);
    }
    return number(f.plus() ? a.value().add(b.value()) : a.value().subtract(b.value()));
  }

  /**
   * A computed number; DynamoDB calls a result beyond 38 digits an overflow too (1E+50 + 1, say).
   */
  private static AttributeValue.N number(BigDecimal value) {
    try {
      return new AttributeValue.N(value);
    } catch (ViewbaseException e) {
      if (e.getMessage().startsWith("Attempting to store more than 38")) {
        throw invalid(
            "Number overflow. Attempting to store a number with magnitude larger than supported"
                + " range");
      }
      throw e;
    }
  }

  private static void add(
      Map<String, AttributeValue> item, AddAction add, Map<String, AttributeValue> before) {
    AttributeValue existing = add.path().get(before).orElse(null);
    AttributeValue operand = add.value();
    AttributeValue result;
    if (existing == null) {
      result = operand;
    } else if (existing instanceof AttributeValue.N a && operand instanceof AttributeValue.N b) {
      result = number(a.value().add(b.value()));
    } else if (existing instanceof AttributeValue.SS a && operand instanceof AttributeValue.SS b) {
      Set<String> union = new LinkedHashSet<>(a.value());
      union.addAll(b.value());
      result = new AttributeValue.SS(union);
    } else if (existing instanceof AttributeValue.NS a && operand instanceof AttributeValue.NS b) {
      Set<BigDecimal> union = new LinkedHashSet<>(a.value());
      union.addAll(b.value());
      result = new AttributeValue.NS(union);
    } else if (existing instanceof AttributeValue.BS a && operand instanceof AttributeValue.BS b) {
      Set<AttributeValue.B> union = new LinkedHashSet<>(a.value());
      union.addAll(b.value());
      result = new AttributeValue.BS(union);
    } else if (add.lists()
        && existing instanceof AttributeValue.L a
        && operand instanceof AttributeValue.L b) {
      List<AttributeValue> joined = new ArrayList<>(a.value());
      joined.addAll(b.value());
      result = new AttributeValue.L(joined);
    } else {
      throw invalid(WRONG_TYPE);
    }
    DocumentWrites.setAt(item, add.path(), result);
  }

  private static void delete(
      Map<String, AttributeValue> item,
      DeleteAction delete,
      Map<String, AttributeValue> before,
      boolean exists) {
    AttributeValue existing = delete.path().get(before).orElse(null);
    AttributeValue operand = delete.value();
    if (operand == null || existing == null) {
      // Without a value (legacy DELETE) the attribute goes; with one, an absent set is no error,
      // but an absent parent is, as for REMOVE.
      if (operand == null || !delete.path().isTopLevel()) {
        DocumentWrites.removeAt(item, delete.path(), exists);
      }
      return;
    }
    Set<?> remaining;
    AttributeValue result;
    if (existing instanceof AttributeValue.SS a && operand instanceof AttributeValue.SS b) {
      Set<String> rest = new LinkedHashSet<>(a.value());
      rest.removeAll(b.value());
      remaining = rest;
      result = rest.isEmpty() ? null : new AttributeValue.SS(rest);
    } else if (existing instanceof AttributeValue.NS a && operand instanceof AttributeValue.NS b) {
      Set<BigDecimal> rest = new LinkedHashSet<>(a.value());
      rest.removeAll(b.value());
      remaining = rest;
      result = rest.isEmpty() ? null : new AttributeValue.NS(rest);
    } else if (existing instanceof AttributeValue.BS a && operand instanceof AttributeValue.BS b) {
      Set<AttributeValue.B> rest = new LinkedHashSet<>(a.value());
      rest.removeAll(b.value());
      remaining = rest;
      result = rest.isEmpty() ? null : new AttributeValue.BS(rest);
    } else {
      throw invalid(WRONG_TYPE);
    }
    if (remaining.isEmpty()) {
      DocumentWrites.removeAt(item, delete.path(), exists);
    } else {
      DocumentWrites.setAt(item, delete.path(), result);
    }
  }

  static ViewbaseException invalid(String message) {
    return ViewbaseException.of(ErrorCode.InvalidInput, message);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Update other && actions.equals(other.actions);
  }

  @Override
  public int hashCode() {
    return Objects.hash(actions);
  }

  @Override
  public String toString() {
    return "Update" + actions;
  }
}
