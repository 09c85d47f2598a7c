package io.viewbase.cli;

import picocli.CommandLine.IVersionProvider;

/**
 * The version in the jar manifest (written by the build), or "development" when run from classes.
 */
final class VersionProvider implements IVersionProvider {
  @Override
  public String[] getVersion() {
    String version = Main.class.getPackage().getImplementationVersion();
    return new String[] {"viewbase " + (version == null ? "development" : version)};
  }
}
