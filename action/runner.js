"use strict";
/**
 * The GitHub Actions runner's interface as a node action sees it, with Node's own modules only (the action runs
 * from its checkout without `npm ci`): inputs from INPUT_<NAME>, outputs, variables and state appended to the files
 * named by GITHUB_OUTPUT, GITHUB_ENV and GITHUB_STATE, state read back by the post step from STATE_<name>, and
 * workflow commands (::add-mask::, ::error::) on stdout.
 */
const { appendFileSync } = require("node:fs");
const { randomUUID } = require("node:crypto");

/** An input's value, trimmed; the runner names it INPUT_ and the id in upper case, spaces as underscores. */
function input(name) {
  return (process.env[`INPUT_${name.replace(/ /g, "_").toUpperCase()}`] || "").trim();
}

/** A boolean input: true, false (or empty: `fallback`); anything else is an error naming the input. */
function booleanInput(name, fallback) {
  const value = input(name).toLowerCase();
  if (value === "") return fallback;
  if (["true", "yes", "1"].includes(value)) return true;
  if (["false", "no", "0"].includes(value)) return false;
  throw new InputError(name, `must be true or false, got ${JSON.stringify(input(name))}`);
}

/** A mistake in the inputs: the message names the input and says what to write. */
class InputError extends Error {
  constructor(name, problem) {
    super(`input ${name} ${problem}`);
    this.name = "InputError";
  }
}

/** Appends `name<<DELIMITER` / value / `DELIMITER` to the file named by `variable` (multi-line safe). */
function appendFileCommand(variable, name, value) {
  const file = process.env[variable];
  if (!file) throw new Error(`$${variable} is not set: this script runs as a step of a GitHub Actions job`);
  const text = String(value);
  let delimiter = `ghadelimiter_${randomUUID()}`;
  while (text.includes(delimiter)) delimiter = `ghadelimiter_${randomUUID()}`;
  appendFileSync(file, `${name}<<${delimiter}\n${text}\n${delimiter}\n`);
}

/** Sets a step output. */
function setOutput(name, value) {
  appendFileCommand("GITHUB_OUTPUT", name, value);
}

/** Sets an environment variable for later steps (and for this process). */
function exportVariable(name, value) {
  appendFileCommand("GITHUB_ENV", name, value);
  process.env[name] = String(value);
}

/** Saves a value for the post step, which reads it with {@link state}. */
function saveState(name, value) {
  appendFileCommand("GITHUB_STATE", name, value);
}

/** A value saved by the main step ("" when none was). */
function state(name) {
  return process.env[`STATE_${name}`] || "";
}

/** Escapes a workflow command's message. */
function escapeData(text) {
  return String(text).replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

/** Hides a value in every later line of the job's log. */
function mask(value) {
  if (value) process.stdout.write(`::add-mask::${escapeData(value)}\n`);
}

/** An error annotation. */
function error(message) {
  process.stdout.write(`::error::${escapeData(message)}\n`);
}

/** A warning annotation. */
function warning(message) {
  process.stdout.write(`::warning::${escapeData(message)}\n`);
}

/** A line of the log. */
function info(message) {
  process.stdout.write(`${message}\n`);
}

module.exports = { input, booleanInput, InputError, setOutput, exportVariable, saveState, state, mask, error, warning, info };
