// src/lib/spool.ts: which spools a start sweeps. One whose owner on this host is gone goes at
// once; one of a live process, of another host, or naming no owner stays until it is an hour
// untouched; this process's own are never swept. (tests/entrypoints.test.ts shows the same
// through a real process killed mid-upload and started again.)
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSpool, removeSpool, sweepSpools } from '../src/lib/spool.ts';
import { tempDir } from './helpers/temp.ts';

/** A pid that named a process a moment ago and names none now. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await once(child, 'exit');
  return child.pid!;
}

function age(dir: string, ms: number) {
  const when = new Date(Date.now() - ms);
  for (const entry of readdirSync(dir)) utimesSync(path.join(dir, entry), when, when);
  utimesSync(dir, when, when);
}

describe('sweepSpools', () => {
  it('removes at once the spools of processes of this host that are gone, keeps the rest', async () => {
    const dataDir = tempDir('spool-');
    const root = path.join(dataDir, 'spool');
    const mine = await createSpool(dataDir, 'lf-import-');
    writeFileSync(path.join(mine, 'upload.csv'), 'title,address\n');
    // This host's tag, as createSpool writes it.
    const host = /\.([0-9a-f]{8})\.[A-Za-z0-9]{6}$/.exec(mine)![1]!;
    const make = (name: string) => {
      mkdirSync(path.join(root, name));
      writeFileSync(path.join(root, name, 'upload.csv'), 'title,address\n');
      return name;
    };

    const dead = make(`lf-import-${await deadPid()}.${host}.aaaaaa`);
    // A spool named for this very pid that this process did not make: a restarted container's.
    const earlierLife = make(`lf-import-${process.pid}.${host}.bbbbbb`);
    const liveOther = make(`lf-import-${process.ppid}.${host}.cccccc`);
    const otherHost = make(
      `lf-import-${await deadPid()}.${host === '00000000' ? '11111111' : '00000000'}.dddddd`,
    );
    const unnamed = make('lf-import-Xy12Zq');
    const unnamedOld = make('lf-import-Old123');
    age(path.join(root, unnamedOld), 2 * 60 * 60 * 1000);
    const otherHostOld = make(`lf-import-1.${host === '00000000' ? '11111111' : '00000000'}.eeeeee`);
    age(path.join(root, otherHostOld), 2 * 60 * 60 * 1000);

    expect(await sweepSpools(dataDir)).toBe(4);
    expect(readdirSync(root).sort()).toEqual([path.basename(mine), liveOther, otherHost, unnamed].sort());
    expect(
      [dead, earlierLife, unnamedOld, otherHostOld].some((name) => existsSync(path.join(root, name))),
    ).toBe(false);

    // Its own spool stays even once old; removeSpool takes it.
    age(mine, 2 * 60 * 60 * 1000);
    expect(await sweepSpools(dataDir)).toBe(0);
    await removeSpool(mine);
    expect(existsSync(mine)).toBe(false);
  });

  it('answers 0 when no spool directory exists', async () => {
    expect(await sweepSpools(tempDir('spool-'))).toBe(0);
  });
});
