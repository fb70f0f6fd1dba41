// Main is a victim program for envbisect's tests: a JVM program that
// reads its security properties (the JDK's java.security file) at start,
// run from source (java Main.java: the JRE's own compiler, no javac).
//
// It first writes its TracerPid line of /proc/self/status to stderr
// (tests check that a run was not traced), then prints the default
// keystore type (the property keystore.type) and exits 0 when it is the
// type given as its argument (default pkcs12), 1 otherwise.
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;

public class Main {
    public static void main(String[] args) throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("TracerPid:")) {
                System.err.println(line);
            }
        }
        String want = args.length > 0 ? args[0] : "pkcs12";
        String got = KeyStore.getDefaultType();
        System.out.println("keystore.type " + got);
        System.exit(got.equals(want) ? 0 : 1);
    }
}
