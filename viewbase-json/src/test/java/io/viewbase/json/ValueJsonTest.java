package io.viewbase.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Limits;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ValueJsonTest {
  @Test
  void aContainerWithTypedMembersReadsBackWithTheirTypes() {
    Map<String, Value> members = new LinkedHashMap<>();
    members.put("big", new Value.Int64(5));
    members.put("list", new Value.Arr(List.of(new Value.Int64(7), new Value.Str("x"))));
    Value object = new Value.Obj(members);

    String json = ValueJson.write(object);

    assertThat(json)
        .isEqualTo(
            "{\"big@odata.type\":\"Edm.Int64\",\"big\":5,"
                + "\"list\":[{\"@odata.type\":\"Edm.Int64\",\"value\":7},\"x\"]}");
    assertThat(ValueJson.readContainer(json, "p", Limits.DEFAULT)).isEqualTo(object);
  }

  @Test
  void aScalarIsRefusedWithInvalidValue() {
    assertThatThrownBy(() -> ValueJson.readContainer("5", "p", Limits.DEFAULT))
        .isInstanceOfSatisfying(
            ViewbaseException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.InvalidValue));
    assertThatThrownBy(() -> ValueJson.readContainer("{", "p", Limits.DEFAULT))
        .isInstanceOfSatisfying(
            ViewbaseException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.InvalidJson));
  }
}
