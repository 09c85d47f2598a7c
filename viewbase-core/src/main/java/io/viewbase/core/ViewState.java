package io.viewbase.core;

import io.viewbase.api.ViewStatus;

/**
 * Where a view is in its life: {@code building → ready}, or {@code building → failed}.
 *
 * <table>
 *   <caption>states</caption>
 *   <tr><th>state</th><th>source writes maintain it</th><th>reads</th><th>leaves it for</th></tr>
 *   <tr><td>BUILDING</td><td>yes</td><td>ViewNotReady</td><td>READY when the backfill has copied every item,
 *       FAILED on a conflict</td></tr>
 *   <tr><td>READY</td><td>yes</td><td>served</td><td>nothing (until dropped)</td></tr>
 *   <tr><td>FAILED</td><td>no; its data is removed</td><td>ViewNotReady</td><td>nothing: drop it and create it
 *       again</td></tr>
 * </table>
 *
 * <p>The public API keeps the states as text ({@link ViewStatus#BUILDING} ...), which is what JSON,
 * the Azure dialect and the client carry; {@link #text()} is that text, and it is also how the
 * catalog stores the state.
 */
enum ViewState {
  BUILDING(ViewStatus.BUILDING),
  READY(ViewStatus.READY),
  FAILED(ViewStatus.FAILED);

  private final String text;

  ViewState(String text) {
    this.text = text;
  }

  /**
   * The state as the API shows it and the catalog stores it: {@code building}, {@code ready},
   * {@code failed}.
   */
  String text() {
    return text;
  }

  /** Whether source writes keep a view in this state in step. */
  boolean isMaintained() {
    return this != FAILED;
  }

  /** The state of {@link #text()}; fails on any other text. */
  static ViewState of(String text) {
    for (ViewState state : values()) {
      if (state.text.equals(text)) {
        return state;
      }
    }
    throw new IllegalArgumentException("not a view state: " + text);
  }
}
