package io.viewbase.entity;

import io.viewbase.api.Database;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Viewbase;
import io.viewbase.client.RemoteDatabase;
import io.viewbase.server.ServerOptions;
import io.viewbase.server.ViewbaseServer;
import java.net.URI;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The worked example of docs/entities.md through a server on a real socket and the Java client. */
class WorkedExampleRemoteTest {
  @Test
  void workedExampleRunsAgainstAServer(@TempDir Path dir) {
    try (Database embedded = Viewbase.open(OpenOptions.at(dir));
        ViewbaseServer server =
            ViewbaseServer.start(embedded, ServerOptions.defaults().withPort(0));
        RemoteDatabase remote =
            RemoteDatabase.connect(URI.create("http://127.0.0.1:" + server.port() + "/"))) {
      WorkedExample.run(remote);
    }
  }
}
