package io.viewbase.server.js;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON object a JavaScript scenario prints as its last line: what it left in the database
 * (tables, keys, values), for the Java side to check through {@code Database}. Objects become maps,
 * arrays lists, numbers {@code Long} or {@code Double}.
 */
public record ScenarioReport(Map<String, Object> members) {
  private static final JsonFactory JSON = new JsonFactory();

  public static ScenarioReport parse(String line) {
    try (JsonParser p = JSON.createParser(line)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new IllegalArgumentException("a scenario's report is a JSON object, not: " + line);
      }
      @SuppressWarnings("unchecked")
      Map<String, Object> members = (Map<String, Object>) read(p);
      return new ScenarioReport(members);
    } catch (IOException e) {
      throw new IllegalArgumentException("a scenario's report is a JSON object, not: " + line, e);
    }
  }

  private static Object read(JsonParser p) throws IOException {
    return switch (p.currentToken()) {
      case START_OBJECT -> {
        Map<String, Object> members = new LinkedHashMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String name = p.currentName();
          p.nextToken();
          members.put(name, read(p));
        }
        yield members;
      }
      case START_ARRAY -> {
        List<Object> items = new ArrayList<>();
        while (p.nextToken() != JsonToken.END_ARRAY) {
          items.add(read(p));
        }
        yield items;
      }
      case VALUE_STRING -> p.getText();
      case VALUE_NUMBER_INT -> p.getLongValue();
      case VALUE_NUMBER_FLOAT -> p.getDoubleValue();
      case VALUE_TRUE -> true;
      case VALUE_FALSE -> false;
      case VALUE_NULL -> null;
      default -> throw new IOException("unexpected " + p.currentToken());
    };
  }

  public String string(String name) {
    return (String) require(name);
  }

  public long number(String name) {
    return (Long) require(name);
  }

  @SuppressWarnings("unchecked")
  public List<String> strings(String name) {
    return (List<String>) require(name);
  }

  @SuppressWarnings("unchecked")
  public List<List<String>> keys(String name) {
    return (List<List<String>>) require(name);
  }

  @SuppressWarnings("unchecked")
  public ScenarioReport object(String name) {
    return new ScenarioReport((Map<String, Object>) require(name));
  }

  private Object require(String name) {
    if (!members.containsKey(name)) {
      throw new IllegalArgumentException("the scenario's report has no '" + name + "': " + members);
    }
    return members.get(name);
  }
}
