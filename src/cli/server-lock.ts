// Which server process serves a SQLite file, kept beside it (`<file>.server`, its process id): a second
// `milepost serve` on the same file started without a word, and an operator who meant to restart found
// two servers taking turns at one file. Two may serve one file (they wait for each other's writes), so
// the second is told, not refused. A file left by a server that died is taken over.
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';

/** Whether process `pid` is running (on this machine). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, under another user
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Notes this process as the server of `file`, unless another running one is noted: then its process id.
 * `release` takes the note away again if it is this process's.
 */
export function noteServer(file: string): { otherPid: number | null; release(): void } {
  const path = `${file}.server`;
  const mine = String(process.pid);
  const release = () => {
    try {
      if (readFileSync(path, 'utf8').trim() === mine) rmSync(path, { force: true });
    } catch {
      // gone already
    }
  };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, mine);
      closeSync(fd);
      return { otherPid: null, release };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return { otherPid: null, release: () => undefined };
      const noted = Number(readFileSync(path, 'utf8').trim());
      if (Number.isSafeInteger(noted) && noted > 0 && noted !== process.pid && running(noted)) {
        return { otherPid: noted, release: () => undefined };
      }
      // left by a server that is gone: taken over
      rmSync(path, { force: true });
    }
  }
  return { otherPid: null, release: () => undefined };
}
