// Runs code steps in QuickJS (quickjs-emscripten), in a worker thread so that a script stuck where
// QuickJS cannot interrupt it (a garbage collection thrashing at the memory limit) is ended by
// terminating this worker, never by blocking the server. One WebAssembly module and one runtime per
// worker, a fresh context per run. Plain JS so the worker needs no TypeScript loader.
import { parentPort } from 'node:worker_threads';
import { getQuickJS } from 'quickjs-emscripten';

/**
 * The API inside the context, mirroring the page script API (src/shared/script-api.ts) where it makes
 * sense on the server; built inside the context from plain data, so no host function is exposed.
 */
const PRELUDE = `
const __data = JSON.parse(__in);
const __out = { set: {}, notices: [] };
const __name = (n) => String(n).replace(/^state\\./, '');
const api = Object.freeze({
  params: __data.params,
  record: __data.record,
  user: __data.user,
  state: __data.state,
  getValue(name) { const k = __name(name); return k in __out.set ? __out.set[k] : __data.state[k]; },
  setValue(name, value) { __out.set[__name(name)] = value === undefined ? null : value; },
  notify(message) { __out.notices.push(String(message)); },
});
`;

/** What a script's context has: the language, JSON, dates, regular expressions, maps and sets. */
const INTRINSICS = { BaseObjects: true, Date: true, Eval: true, RegExp: true, JSON: true, MapSet: true };

const module = await getQuickJS();
let runtime = null;
let runtimeMemory = 0;

function getRuntime(memoryBytes) {
  if (runtime && runtimeMemory === memoryBytes) return runtime;
  runtime = module.newRuntime();
  runtime.setMemoryLimit(memoryBytes);
  runtime.setMaxStackSize(512 * 1024);
  runtimeMemory = memoryBytes;
  return runtime;
}

function run({ source, input, limits }) {
  const rt = getRuntime(limits.memoryBytes);
  const deadline = Date.now() + limits.timeoutMs;
  let timedOut = false;
  rt.setInterruptHandler(() => {
    if (Date.now() > deadline) timedOut = true;
    return timedOut;
  });
  const vm = rt.newContext({ intrinsics: INTRINSICS });
  let failure = null;
  let text = null;
  try {
    const inJson = vm.newString(JSON.stringify(input));
    vm.setProp(vm.global, '__in', inJson);
    inJson.dispose();
    const program = `${PRELUDE}
const __value = (function (api) { "use strict";
${source}
})(api);
JSON.stringify({ value: __value === undefined ? null : __value, set: __out.set, notices: __out.notices });`;
    const r = vm.evalCode(program, 'code-step.js');
    if (r.error) {
      let message = 'out of memory';
      try {
        const e = vm.dump(r.error);
        message =
          typeof e === 'object' && e !== null ? `${e.name ?? 'Error'}: ${e.message ?? ''}` : String(e);
      } finally {
        r.error.dispose();
      }
      failure = timedOut
        ? { kind: 'timeout', message: `ran longer than ${limits.timeoutMs} ms` }
        : /out of memory|stack overflow/i.test(message)
          ? { kind: 'memory', message: `used more than ${limits.memoryBytes} bytes of memory (${message})` }
          : { kind: 'error', message: message.slice(0, 500) };
    } else {
      try {
        text = vm.typeof(r.value) === 'string' ? vm.getString(r.value) : null;
      } finally {
        r.value.dispose();
      }
    }
  } catch {
    failure = { kind: 'memory', message: `used more than ${limits.memoryBytes} bytes of memory` };
  } finally {
    rt.removeInterruptHandler();
    try {
      vm.dispose();
    } catch {
      // A context that refuses to free: a new runtime next time (this one is dropped).
      runtime = null;
    }
  }
  if (failure) return { ok: false, failure };
  if (text === null) return { ok: false, failure: { kind: 'error', message: 'the answer is not JSON' } };
  if (text.length > limits.maxAnswerChars)
    return {
      ok: false,
      failure: { kind: 'memory', message: `the answer is larger than ${limits.maxAnswerChars} characters` },
    };
  return { ok: true, text };
}

parentPort.on('message', (m) => {
  let answer;
  try {
    answer = run(m);
  } catch (e) {
    answer = { ok: false, failure: { kind: 'error', message: String(e?.message ?? e).slice(0, 500) } };
  }
  parentPort.postMessage({ id: m.id, ...answer });
});
parentPort.postMessage({ ready: true });
