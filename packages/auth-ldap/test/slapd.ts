import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, tcpReachable } from '@vigie/kernel-testing';

/** Debian's OpenLDAP server, if installed (`apt-get install slapd`). */
export const slapdPath = '/usr/sbin/slapd';
export const slapdInstalled = existsSync(slapdPath) && existsSync('/usr/sbin/slapadd');

export const suffix = 'dc=example,dc=org';
export const adminDn = `cn=admin,${suffix}`;
export const adminPassword = 'directory-admin-secret';

export interface Slapd {
  ldapUrl: string;
  ldapsUrl: string;
  /** PEM of the self-signed certificate the server presents (to trust in `ca_file`). */
  caFile: string;
  stop(): Promise<void>;
}

/** People of the test directory: uid, password and attributes. */
const people = [
  { uid: 'alice', password: 'alice-password', givenName: 'Alice', sn: 'Liddell', mail: 'alice@example.org', employeeNumber: 'alice.liddell' },
  { uid: 'bob', password: 'bob-password', givenName: 'Bob', sn: 'Builder', mail: 'bob@example.org' },
  { uid: 'star*name', password: 'star-password', givenName: 'Star', sn: 'Name', mail: 'star@example.org' },
  // Named like the local administrator: must never become it.
  { uid: 'root', password: 'directory-root-password', givenName: 'Not', sn: 'Root', mail: 'root@example.org' },
];

function ldif(): string {
  const entries = [
    `dn: ${suffix}\nobjectClass: dcObject\nobjectClass: organization\no: Example\ndc: example\n`,
    `dn: ou=people,${suffix}\nobjectClass: organizationalUnit\nou: people\n`,
    ...people.map(
      (p) =>
        `dn: uid=${p.uid},ou=people,${suffix}\nobjectClass: inetOrgPerson\nuid: ${p.uid}\ncn: ${p.givenName} ${p.sn}\n` +
        `givenName: ${p.givenName}\nsn: ${p.sn}\nmail: ${p.mail}\nuserPassword: ${p.password}\n` +
        ('employeeNumber' in p ? `employeeNumber: ${p.employeeNumber}\n` : ''),
    ),
  ];
  return entries.join('\n');
}

/**
 * Starts a throw-away slapd on free loopback ports (plain LDAP with StartTLS, and LDAPS), with its own
 * configuration, self-signed certificate and database in a temporary directory, loaded with slapadd.
 */
export async function startSlapd(): Promise<Slapd> {
  const dir = mkdtempSync(join(tmpdir(), 'vigie-slapd-'));
  mkdirSync(join(dir, 'db'));
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1', '-keyout', key, '-out', cert], { stdio: 'ignore' });
  const conf = join(dir, 'slapd.conf');
  writeFileSync(
    conf,
    [
      ...['core', 'cosine', 'inetorgperson', 'nis'].map((s) => `include /etc/ldap/schema/${s}.schema`),
      `pidfile ${join(dir, 'slapd.pid')}`,
      'modulepath /usr/lib/ldap',
      'moduleload back_mdb',
      `TLSCertificateFile ${cert}`,
      `TLSCertificateKeyFile ${key}`,
      'database mdb',
      'maxsize 10485760',
      `suffix "${suffix}"`,
      `rootdn "${adminDn}"`,
      `rootpw ${adminPassword}`,
      `directory ${join(dir, 'db')}`,
      'access to attrs=userPassword by anonymous auth by self read by * none',
      'access to * by * read',
      '',
    ].join('\n'),
  );
  writeFileSync(join(dir, 'data.ldif'), ldif());
  execFileSync('/usr/sbin/slapadd', ['-f', conf, '-l', join(dir, 'data.ldif')], { stdio: 'pipe' });
  const ldapPort = await freePort();
  const ldapsPort = await freePort();
  const ldapUrl = `ldap://127.0.0.1:${ldapPort}`;
  const ldapsUrl = `ldaps://localhost:${ldapsPort}`;
  // `-d 0`: stay in the foreground (a child this test owns and stops), logging nothing.
  const child: ChildProcess = spawn(slapdPath, ['-f', conf, '-h', `${ldapUrl}/ ldaps://127.0.0.1:${ldapsPort}/`, '-d', '0'], { stdio: 'ignore' });
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  const stop = async (): Promise<void> => {
    if (!exited) {
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await gone;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  for (let i = 0; i < 100; i += 1) {
    if (exited) break;
    if ((await tcpReachable('127.0.0.1', ldapPort, 200)) && (await tcpReachable('127.0.0.1', ldapsPort, 200))) return { ldapUrl, ldapsUrl, caFile: cert, stop };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await stop();
  throw new Error('slapd did not start');
}
