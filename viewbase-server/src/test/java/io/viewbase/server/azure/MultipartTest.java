package io.viewbase.server.azure;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MultipartTest {
  @Test
  void boundaryIsFoundInAnyCase() {
    assertThat(Multipart.boundary("multipart/mixed; Boundary=batch_1")).isEqualTo("batch_1");
    assertThat(Multipart.boundary("multipart/mixed; BOUNDARY=\"batch_2\"; x=y"))
        .isEqualTo("batch_2");
  }

  @Test
  void boundaryAfterACharacterWhoseLowerCaseIsLongerIsReadFromTheHeaderItself() {
    // U+0130 lower-cases to two chars: an index found in a lower-cased copy pointed one char past
    // the parameter (found by MultipartFuzzTest: StringIndexOutOfBoundsException)
    assertThat(Multipart.boundary("\u0130; boundary=batch_3")).isEqualTo("batch_3");
    assertThat(Multipart.boundary("\u0130\u0130\u0130; boundary=b")).isEqualTo("b");
    assertThat(Multipart.boundary("\u0130boundary=")).isNull();
  }

  @Test
  void noBoundaryParameterIsNull() {
    assertThat(Multipart.boundary(null)).isNull();
    assertThat(Multipart.boundary("multipart/mixed")).isNull();
    assertThat(Multipart.boundary("multipart/mixed; boundary=  ")).isNull();
  }
}
