/** The planner's and the detector's file-system reads, from node:fs (the imperative shell around them). */

import { accessSync, constants, existsSync, lstatSync, readFileSync, realpathSync, statSync } from "node:fs";
import type { DetectFs } from "./mechanism.js";
import type { Probe } from "./plan.js";

export const nodeProbe: Probe = {
  lstat(path) {
    try {
      // most probed paths (socket folders, masks) are absent: answered without an exception
      const st = lstatSync(path, { throwIfNoEntry: false });
      if (st === undefined) return undefined;
      const kind = st.isSymbolicLink()
        ? "symlink"
        : st.isFile()
          ? "file"
          : st.isDirectory()
            ? "dir"
            : st.isSocket()
              ? "socket"
              : "other";
      return { kind, nlink: st.nlink };
    } catch {
      return undefined;
    }
  },
  realpath(path) {
    try {
      return realpathSync.native(path);
    } catch {
      return undefined;
    }
  },
};

export const nodeDetectFs: DetectFs = {
  isExecutable(path) {
    try {
      if (statSync(path, { throwIfNoEntry: false })?.isFile() !== true) return false;
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  },
  readText(path) {
    try {
      return readFileSync(path, "utf8").slice(0, 256);
    } catch {
      return undefined;
    }
  },
  exists: (path) => existsSync(path),
};
