/**
 * A throwaway certificate authority for the desktop app's TLS tests
 * (issue 15: the app verifies the server's certificate; tests trust their
 * own CA through NODE_EXTRA_CA_CERTS, never through a switch in the app).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export type TestCa = { dir: string; caFile: string; key: string; cert: string };

/** A CA and a server certificate for 127.0.0.1 signed by it (openssl, ~100 ms). */
export function createTestCa(): TestCa {
  const dir = mkdtempSync(join(tmpdir(), "atelier-desktop-tls-"));
  const file = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync("openssl", args, { stdio: "pipe" });
  openssl(
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-days",
    "2",
    "-subj",
    "/CN=Atelier test CA",
    "-keyout",
    file("ca.key"),
    "-out",
    file("ca.pem"),
  );
  openssl(
    "req",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-subj",
    "/CN=127.0.0.1",
    "-keyout",
    file("server.key"),
    "-out",
    file("server.csr"),
  );
  writeFileSync(file("ext.cnf"), "subjectAltName=IP:127.0.0.1,DNS:localhost\n");
  openssl(
    "x509",
    "-req",
    "-in",
    file("server.csr"),
    "-CA",
    file("ca.pem"),
    "-CAkey",
    file("ca.key"),
    "-CAcreateserial",
    "-days",
    "2",
    "-extfile",
    file("ext.cnf"),
    "-out",
    file("server.pem"),
  );
  return {
    dir,
    caFile: file("ca.pem"),
    key: readFileSync(file("server.key"), "utf8"),
    cert: readFileSync(file("server.pem"), "utf8"),
  };
}
