package io.viewbase.cli;

import io.viewbase.api.Item;
import io.viewbase.api.Limits;
import io.viewbase.json.ItemJson;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Reads back the items a command printed as JSON Lines. */
final class Items {
  private Items() {}

  static Item parse(String line) {
    return ItemJson.readStored(line.getBytes(StandardCharsets.UTF_8), Limits.DEFAULT);
  }

  static List<Item> parseLines(String out) {
    return out.lines().map(Items::parse).toList();
  }

  static List<String> ids(String out) {
    return parseLines(out).stream().map(Item::id).toList();
  }
}
