package io.hare.yarn.app;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Optional;
import org.junit.Test;

/** The library jar a job ships beside the Hare jar, and when it need not. */
public class ContainerClasspathTest {

  @Test(timeout = 60_000)
  public void picocliIsShippedUnlessTheHareJarCarriesIt() {
    Optional<Path> picocli = ContainerClasspath.dependencyJar(Paths.get("hare-yarn.jar"));
    assertTrue("the test classpath loads picocli from its own jar", picocli.isPresent());
    assertEquals("the plugin jar carries it (shaded): nothing more to ship", Optional.empty(),
        ContainerClasspath.dependencyJar(picocli.get()));
  }
}
