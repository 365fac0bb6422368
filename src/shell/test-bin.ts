import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Programs the test PATH holds: stand-ins, so what a name resolves to does not depend on the machine. */
const PROGRAMS = [
  'curl',
  'wget',
  'ls',
  'cat',
  'grep',
  'wc',
  'mkdir',
  'touch',
  'echo',
  'git',
  'rm',
  'cp',
  'mv',
  'python3',
  'node',
  'perl',
  'ruby',
  'sh',
  'bash',
  'dash',
  'env',
  'xargs',
  'timeout',
  'nice',
  'nohup',
  'sudo',
  'find',
  'busybox',
  'stdbuf',
  'setsid',
  'flock',
  'ionice',
  'chrt',
  'taskset',
  'watch',
  'parallel',
  'script',
  'su',
  'awk',
  'sed',
  'tee',
  'chmod',
  'chown',
  'dd',
  'mkfs.ext4',
  'true',
  'false',
  'head',
  'sort',
  'npm',
  'shutdown',
  'reboot',
  'truncate',
  'doas',
  'ssh',
  'tar',
  'jq',
  'printf',
  'test',
  'sleep',
  'date',
  'ln',
  'rmdir',
  'strace',
  'valgrind',
];

/** A workspace and a PATH folder of stand-in programs, with links in the workspace to some of them. */
export function testBin() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'zhixing-shell-')));
  const bin = join(root, 'bin');
  const ws = join(root, 'workspace');
  mkdirSync(bin);
  mkdirSync(ws);
  for (const name of PROGRAMS) {
    writeFileSync(join(bin, name), '#!/bin/sh\n');
    chmodSync(join(bin, name), 0o755);
  }
  // A link in the workspace to curl is curl; one in PATH to busybox runs the applet it is named after.
  symlinkSync(join(bin, 'curl'), join(ws, 'c'));
  symlinkSync(join(bin, 'busybox'), join(bin, 'nc'));
  writeFileSync(join(ws, 'run.sh'), 'curl x\n');
  // A link in the workspace to Zhixing's own config is that file.
  mkdirSync(join(root, 'home', '.zhixing'), { recursive: true });
  writeFileSync(join(root, 'home', '.zhixing', 'config.json'), '{}');
  symlinkSync(join(root, 'home', '.zhixing', 'config.json'), join(ws, 'link-to-config'));
  chmodSync(join(ws, 'run.sh'), 0o755);
  return { root, bin, ws, home: join(root, 'home'), cleanup: () => rmSync(root, { recursive: true, force: true }) };
}
