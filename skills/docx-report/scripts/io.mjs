// Arguments, input and output for this skill's script: the same rules for every office skill
// (kept as a copy in each skill's folder, so a skill's folder is all it needs).
import {
  closeSync,
  constants,
  copyFileSync,
  existsSync,
  fsyncSync,
  linkSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** A JSON input larger than this is not a report someone dictated but a mistake. */
const MAX_INPUT_BYTES = 20_000_000;
const USAGE_EXIT = 2;
const INPUT_EXIT = 1;
const SHOWN_VALUE_CHARS = 60;

/** A problem the person or model running the script can fix; printed as one line, never a stack. */
export class InputError extends Error {
  constructor(message, exitCode = INPUT_EXIT) {
    super(message);
    this.exitCode = exitCode;
  }
}

/** A value as an error message shows it: its kind and the start of its JSON. */
export function describe(value) {
  if (value === undefined) return 'nothing (the field is missing)';
  const kind =
    value === null
      ? 'null'
      : Array.isArray(value)
        ? 'an array'
        : typeof value === 'object'
          ? 'an object'
          : `a ${typeof value}`;
  const json = JSON.stringify(value) ?? String(value);
  return value === null
    ? 'null'
    : `${kind} ${json.length > SHOWN_VALUE_CHARS ? `${json.slice(0, SHOWN_VALUE_CHARS)}…` : json}`;
}

export function formatSize(bytes) {
  return bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 * 1024
      ? `${(bytes / 1024).toFixed(1)} KB`
      : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** INPUT OUTPUT [--force]; refuses an existing output before any work unless --force. */
export function parseArgs(argv, usage, extension) {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(usage);
    process.exit(0);
  }
  const force = argv.includes('--force');
  const unknown = argv.find((a) => a.startsWith('-') && a !== '--force');
  if (unknown) throw new InputError(`unknown option ${unknown}. ${usage}`, USAGE_EXIT);
  const paths = argv.filter((a) => a !== '--force');
  if (paths.length !== 2)
    throw new InputError(`expected an input and an output file, got ${paths.length} argument(s). ${usage}`, USAGE_EXIT);
  const [input, output] = paths;
  if (!output.toLowerCase().endsWith(extension))
    throw new InputError(`the output file must end with ${extension}, got "${output}"`, USAGE_EXIT);
  if (!force && existsSync(output)) throw alreadyThere(output);
  if (!existsSync(dirname(output) || '.'))
    throw new InputError(
      `the folder ${dirname(output)} of the output does not exist; create it first or write to another path`,
    );
  return { input, output, force };
}

const alreadyThere = (output) =>
  new InputError(`${output} already exists and was left unchanged; pass --force to replace it, or choose another name`);

export function readJson(path) {
  let text;
  try {
    if (statSync(path).size > MAX_INPUT_BYTES)
      throw new InputError(`${path} is larger than ${formatSize(MAX_INPUT_BYTES)}; that is too much for one document`);
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw new InputError(
      err.code === 'ENOENT'
        ? `the input file ${path} does not exist`
        : `cannot read ${path} (${err.code ?? err.message})`,
    );
  }
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new InputError(`${path} is not valid JSON: ${err.message}`);
  }
}

/**
 * Writes the whole file beside the target, then puts it in place in one step: a reader never sees
 * half a file, and without `force` a file that appeared meanwhile is still not replaced.
 */
export function writeOutput(output, bytes, force) {
  const temp = join(dirname(output), `.${basename(output)}.${process.pid}.tmp`);
  const fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o644);
  try {
    writeSync(fd, bytes);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    if (force) renameSync(temp, output);
    else placeWithoutReplacing(temp, output);
  } finally {
    if (existsSync(temp)) unlinkSync(temp);
  }
  return formatSize(bytes.length);
}

function placeWithoutReplacing(temp, output) {
  try {
    linkSync(temp, output);
  } catch (err) {
    if (err.code === 'EEXIST') throw alreadyThere(output);
    // A file system without hard links: an exclusive copy keeps the same promise.
    try {
      copyFileSync(temp, output, constants.COPYFILE_EXCL);
    } catch (copyErr) {
      throw copyErr.code === 'EEXIST' ? alreadyThere(output) : copyErr;
    }
  }
}
