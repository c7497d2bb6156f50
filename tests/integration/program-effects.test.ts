/**
 * Programs, second part: the call, http and code steps, record triggers, and the outbox (socket
 * notices and HTTP requests leave only after the commit, never for a failed or test run), with the
 * limits and SSRF refusals answered as coded errors that change nothing.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOCKET_NAMESPACE, SOCKET_PATH, unpackPayload } from '../../src/shared/realtime.ts';
import { seedProject } from '../helpers/access.ts';
import { call } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';
import {
  createRealtimeEnv,
  type RealtimeEnv,
  type Running,
  type Seed,
  seed,
  until,
} from '../helpers/realtime.ts';

const dialects = await testDialects();

interface Row {
  _id: string;
  [k: string]: unknown;
}
interface Result {
  status: string;
  output: unknown;
  display: { message?: string }[];
  changes: { op: string }[];
  trace: { step: string; type: string; flow?: string; error?: string; data?: string }[];
  error?: { code: number; msg: string; step: string | null };
}
interface Got {
  method: string;
  url: string;
  body: string;
  headers: http.IncomingHttpHeaders;
}

describe.each(dialects)('program effects on %s', (dialect) => {
  let env: RealtimeEnv;
  let r: Running;
  let s: Seed;
  let pid: string;
  let orders: string;
  let logs: string;
  let server: http.Server;
  let port: number;
  let closedPort: number;
  const got: Got[] = [];
  const sockets: Socket[] = [];

  const admin = <T = unknown>(path: string, body?: unknown) =>
    call<T>(r.app, body === undefined ? 'GET' : 'POST', `/api/admin${path}`, {
      token: s.owner.token,
      ...(body === undefined ? {} : { body }),
    });
  const rows = async (entity: string) =>
    (await admin<{ data: Row[] }>(`/data/${pid}/${entity}/query`, { page: { index: 1, size: 100 } })).data
      .data;
  const make = async (process: unknown[], option: Record<string, unknown> = {}, release = true) => {
    const f = await admin<{ _id: string }>(`/flow/${pid}/create`, {
      name: `P${Math.random().toString(36).slice(2, 6)}`,
      _process: process,
      _option: option,
    });
    expect(f.error, f.msg).toBe(0);
    if (release) expect((await admin(`/flow/${pid}/${f.data._id}/release`, {})).error).toBe(0);
    return f.data._id;
  };
  const exec = (id: string, body: Record<string, unknown> = {}) =>
    call<Result>(r.app, 'POST', `/api/common/program/${pid}/exec/${id}/k`, { token: s.owner.token, body });
  const test = async (id: string, body: Record<string, unknown> = {}) =>
    (await admin<Result>(`/flow/${pid}/${id}/test`, body)).data;
  const log = (msg: string) => ({
    _type: 'create',
    _handle: `log_${msg.replace(/\W/g, '')}`,
    _entity: logs,
    _procedure: { values: { msg: `'${msg}'` } },
  });
  const table = async (name: string, fields: [string, string][]) => {
    const e = (await admin<{ _id: string }>(`/project/${pid}/entity/create`, { name })).data._id;
    for (const [code, type] of fields)
      expect(
        (await admin(`/project/${pid}/${e}/field/create`, { name: code, field: code, type })).error,
      ).toBe(0);
    return e;
  };
  const sleep = (ms: number) => new Promise((res) => setTimeout(res, ms));

  beforeAll(async () => {
    env = await createRealtimeEnv(dialect);
    r = await env.start();
    s = await seed(r.app);
    pid = (await seedProject(r.app, s.owner.id, { tier: 3 })).id;
    orders = await table('Orders', [
      ['name', 'string'],
      ['amount', 'number'],
      ['customer', 'string'],
    ]);
    logs = await table('Logs', [
      ['msg', 'string'],
      ['total', 'number'],
    ]);
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => {
        body += c.toString();
      });
      req.on('end', () => {
        if (req.url === '/to-private') {
          res.writeHead(302, { location: `http://127.0.0.1:${closedPort}/x` }).end();
          return;
        }
        if (req.url === '/to-metadata') {
          res.writeHead(307, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
          return;
        }
        if (req.url === '/big') {
          res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(2 * 1024 * 1024));
          return;
        }
        got.push({ method: req.method ?? '', url: req.url ?? '', body, headers: req.headers });
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ echo: body, n: 42 }));
      });
    });
    await new Promise<void>((res) => server.listen(0, '127.0.0.1', res));
    port = (server.address() as AddressInfo).port;
    // A second loopback port that is never allowed.
    const other = http.createServer((_q, res) => res.end('private'));
    await new Promise<void>((res) => other.listen(0, '127.0.0.1', res));
    closedPort = (other.address() as AddressInfo).port;
    other.unref();
    // Only this test server's loopback port may be reached (as PROGRAM_HTTP_ALLOW would say).
    r.app.config.programHttp.allow.add(`127.0.0.1:${port}`);
  });
  afterAll(async () => {
    for (const sock of sockets) sock.close();
    server?.close();
    await env?.cleanup();
  });

  it('call: runs another program in the same transaction; its writes roll back with the caller', async () => {
    const callee = await make([
      {
        _type: 'input',
        _handle: 'form',
        _procedure: { fields: [{ key: 'n', name: 'N', type: 'number', required: true }] },
      },
      {
        _type: 'create',
        _handle: 'c',
        _entity: logs,
        _procedure: { values: { msg: "'callee'", total: 'params.n' } },
      },
      { _type: 'return', _handle: 'ret', _procedure: { value: 'params.n * 2' } },
    ]);
    const caller = await make([
      { _type: 'call', _handle: 'sub', _procedure: { program: callee, data: { n: '21' } } },
      { _type: 'return', _handle: 'ret', _procedure: { value: 'state.sub' } },
    ]);
    const before = (await rows(logs)).length;
    const ok = await exec(caller);
    expect(ok.error, ok.msg).toBe(0);
    expect(ok.data.output).toBe(42);
    expect((await rows(logs)).length).toBe(before + 1);
    // The test run shows the callee's steps in the trace, and changes nothing.
    const dry = await test(caller);
    expect(dry.trace.filter((t) => t.flow).map((t) => t.step)).toEqual(['form', 'c', 'ret']);
    expect((await rows(logs)).length).toBe(before + 1);

    // The caller fails after the call: the callee's row goes too.
    const failing = await make([
      { _type: 'call', _handle: 'sub', _procedure: { program: callee, data: { n: '1' } } },
      {
        _type: 'update',
        _handle: 'bad',
        _entity: logs,
        _procedure: { id: "'0123456789abcdef01234567'", values: {} },
      },
    ]);
    expect((await exec(failing)).error).toBe(1803);
    // The callee's input is checked as an end user's would be.
    const badInput = await make([
      { _type: 'call', _handle: 'sub', _procedure: { program: callee, data: {} } },
    ]);
    const bi = await exec(badInput);
    expect(bi.error).toBe(1803);
    expect(bi.msg).toContain('n: required');
    expect((await rows(logs)).length).toBe(before + 1);
  });

  it('call: a program cannot call itself; cycles end at the depth limit (1807), changing nothing', async () => {
    const a = await make([log('a')], {}, false);
    expect(
      (
        await admin(`/flow/${pid}/${a}/update`, {
          _process: [{ _type: 'call', _handle: 'me', _procedure: { program: a } }],
        })
      ).error,
    ).toBe(1801);
    expect(
      (
        await admin(`/flow/${pid}/create`, {
          name: 'x',
          _process: [{ _type: 'call', _handle: 'c', _procedure: { program: 'f'.repeat(24) } }],
        })
      ).error,
    ).toBe(1801);
    const b = await make([log('b'), { _type: 'call', _handle: 'toA', _procedure: { program: a } }]);
    await admin(`/flow/${pid}/${a}/update`, {
      _process: [log('a'), { _type: 'call', _handle: 'toB', _procedure: { program: b } }],
    });
    await admin(`/flow/${pid}/${a}/release`, {});
    const before = await rows(logs);
    const e = await exec(a);
    expect(e.error).toBe(1807);
    expect(await rows(logs)).toEqual(before);
  });

  it('http: queued requests leave after the commit only; failed and test runs send nothing', async () => {
    got.length = 0;
    const step = (body: string) => ({
      _type: 'http',
      _handle: 'hook',
      _procedure: {
        method: 'POST',
        url: `http://127.0.0.1:${port}/hook/{{params.k}}`,
        headers: { 'X-Run': "'yes'" },
        body,
      },
    });
    const input = {
      _type: 'input',
      _handle: 'in',
      _procedure: { fields: [{ key: 'k', name: 'K', type: 'string' }] },
    };
    const ok = await make([input, step('[params.k, 1]'), log('sent')]);
    const r1 = await exec(ok, { data: { k: 'a1' } });
    expect(r1.error, r1.msg).toBe(0);
    expect((r1.data.output as unknown) ?? null).toBeNull();
    await until(() => got.length === 1, 5000, 'the queued request');
    expect(got[0]).toMatchObject({ method: 'POST', url: '/hook/a1', body: '["a1",1]' });
    expect(got[0]!.headers['x-run']).toBe('yes');
    expect(got[0]!.headers['content-type']).toBe('application/json');

    const failing = await make([
      input,
      step("'x'"),
      {
        _type: 'update',
        _handle: 'bad',
        _entity: logs,
        _procedure: { id: "'0123456789abcdef01234567'", values: {} },
      },
    ]);
    expect((await exec(failing, { data: { k: 'f' } })).error).toBe(1803);
    const dry = await test(ok, { data: { k: 't' } });
    expect(dry.status).toBe('rolled-back');
    await sleep(400);
    expect(got.map((g) => g.url)).toEqual(['/hook/a1']);
  });

  it('http: a waited request answers later steps; SSRF targets and oversized answers are coded errors', async () => {
    got.length = 0;
    const waited = await make([
      { _type: 'http', _handle: 'h', _procedure: { url: `http://127.0.0.1:${port}/data`, wait: true } },
      { _type: 'return', _handle: 'ret', _procedure: { value: 'state.h.body.n + state.h.status' } },
    ]);
    const w = await exec(waited);
    expect(w.error, w.msg).toBe(0);
    expect(w.data.output).toBe(242);

    const before = await rows(logs);
    const target = async (url: string, wait: boolean) => {
      const id = await make([log('before'), { _type: 'http', _handle: 'h', _procedure: { url, wait } }]);
      return exec(id);
    };
    for (const url of [
      'http://127.0.0.1/',
      `http://127.0.0.1:${closedPort}/`,
      `http://localhost:${closedPort}/`,
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/',
      'http://10.0.0.8/',
      'http://[::ffff:127.0.0.1]/',
    ]) {
      for (const wait of [false, true]) {
        const e = await target(url, wait);
        expect(e.error, `${url} ${wait}`).toBe(1809);
        expect(e.msg).toContain('step h');
      }
    }
    expect((await target(`http://127.0.0.1:${port}/to-private`, true)).error).toBe(1809);
    expect((await target(`http://127.0.0.1:${port}/to-metadata`, true)).error).toBe(1809);
    expect((await target(`http://127.0.0.1:${port}/big`, true)).error).toBe(1811);
    expect((await target('file:///etc/passwd', true)).error).toBe(1808);
    expect((await target(`http://u:p@127.0.0.1:${port}/`, true)).error).toBe(1808);
    expect(await rows(logs)).toEqual(before);
    expect(got.map((g) => g.url)).toEqual(['/data']);
  });

  it('code: QuickJS with the script API; errors, endless loops and huge allocations are coded and change nothing', async () => {
    const o = (await admin<Row>(`/data/${pid}/${orders}/save`, { name: 'C1', amount: 5, customer: 'ann' }))
      .data;
    const f = await make(
      [
        {
          _type: 'input',
          _handle: 'in',
          _procedure: { fields: [{ key: 'qty', name: 'Qty', type: 'number' }] },
        },
        { _type: 'set', _handle: 'base', _procedure: { value: '10' } },
        {
          _type: 'code',
          _handle: 'js',
          _procedure: {
            source:
              'api.setValue("doubled", api.state.base * 2);\n' +
              'return { total: api.record.amount * api.params.qty + api.state.base, who: api.user.nickname, net: typeof fetch };',
          },
        },
        { _type: 'return', _handle: 'ret', _procedure: { value: '[state.js, state.doubled]' } },
      ],
      { _entity: orders },
    );
    const ok = await exec(f, { record: o._id, data: { qty: 3 } });
    expect(ok.error, ok.msg).toBe(0);
    expect(ok.data.output).toEqual([{ total: 25, who: 'owner', net: 'undefined' }, 20]);

    const before = await rows(logs);
    const bad = async (source: string) => {
      const id = await make([log('x'), { _type: 'code', _handle: 'js', _procedure: { source } }]);
      return exec(id);
    };
    const loop = await bad('for (;;) {}');
    expect(loop.error).toBe(1813);
    expect(loop.msg).toContain('step js');
    expect((await bad('const a = []; for (;;) a.push(new Array(100000).fill(1));')).error).toBe(1813);
    expect((await bad('let s = "x"; for (;;) s += s;')).error).toBe(1812);
    expect((await bad('function f() { return f(); } return f();')).error).toBe(1813);
    expect((await bad('throw new Error("boom")')).error).toBe(1812);
    // A source that does not parse is refused on save (1801, naming the step), not at run time.
    const unparsed = await admin(`/flow/${pid}/create`, {
      name: 'Unparsed',
      _process: [{ _type: 'code', _handle: 'js', _procedure: { source: 'return (' } }],
    });
    expect(unparsed.error).toBe(1801);
    expect(unparsed.msg).toContain('step js does not parse');
    expect((await bad('return require("fs")')).error).toBe(1812);
    expect(await rows(logs)).toEqual(before);
    // The sandbox still works after those.
    expect((await exec(f, { record: o._id, data: { qty: 1 } })).error).toBe(0);
  });

  it('triggers: record writes run programs in their transaction with the old and new row', async () => {
    // Keeps a log row per order write, with the amount's change; refuses negative amounts.
    const trig = await make(
      [
        {
          _type: 'condition',
          _handle: 'neg',
          _procedure: {
            if: 'params.new != null && params.new.amount < 0',
            yes: [
              {
                _type: 'code',
                _handle: 'refuse',
                _procedure: { source: 'throw new Error("negative amount")' },
              },
            ],
          },
        },
        {
          _type: 'create',
          _handle: 'c',
          _entity: logs,
          _procedure: {
            values: {
              msg: "params.op + ' ' + (params.new ? params.new.name : params.old.name)",
              total: '(params.new ? params.new.amount : 0) - (params.old ? params.old.amount : 0)',
            },
          },
        },
        // Writing the watched table again does not re-enter this program.
        {
          _type: 'condition',
          _handle: 'touch',
          _procedure: {
            if: "params.op == 'create'",
            yes: [
              {
                _type: 'update',
                _handle: 'u',
                _entity: orders,
                _procedure: { id: 'record._id', values: { customer: "'seen'" } },
              },
            ],
          },
        },
      ],
      { _entity: orders, trigger: { on: ['create', 'update', 'remove'] } },
    );
    const logMsgs = async () => (await rows(logs)).map((l) => [l.msg, l.total]);
    const before = await logMsgs();
    const o = await admin<Row>(`/data/${pid}/${orders}/save`, { name: 'T1', amount: 7 });
    expect(o.error, o.msg).toBe(0);
    expect((await rows(orders)).find((x) => x._id === o.data._id)?.customer).toBe('seen');
    expect((await admin(`/data/${pid}/${orders}/${o.data._id}/update`, { amount: 10 })).error).toBe(0);
    expect((await admin(`/data/${pid}/${orders}/${o.data._id}/remove`, {})).error).toBe(0);
    expect((await logMsgs()).slice(before.length)).toEqual([
      ['create T1', 7],
      ['update T1', 3],
      ['remove T1', -10],
    ]);
    // A failing trigger fails the write: nothing of it stays.
    const ordersBefore = await rows(orders);
    const neg = await admin(`/data/${pid}/${orders}/save`, { name: 'N', amount: -1 });
    expect(neg.error).toBe(1814);
    expect(neg.msg).toContain('negative amount');
    expect(await rows(orders)).toEqual(ordersBefore);
    expect((await logMsgs()).length).toBe(before.length + 3);
    // A program's own writes trigger it too, inside the program's run.
    const writer = await make([
      {
        _type: 'create',
        _handle: 'o',
        _entity: orders,
        _procedure: { values: { name: "'W'", amount: '2' } },
      },
    ]);
    const w = await test(writer);
    expect(w.trace.some((t) => t.flow && t.step === 'c')).toBe(true);
    expect((await exec(writer)).error).toBe(0);
    expect((await logMsgs()).slice(-1)).toEqual([['create W', 2]]);
    // Triggered runs are in the run log.
    const runs = await admin<{ trigger: string; status: string }[]>(`/flow/${pid}/${trig}/runs`);
    expect(runs.data.filter((x) => x.trigger === 'record').map((x) => x.status)).toContain('failed');
    // A trigger without its table, or one asking for input, is refused.
    expect(
      (
        await admin(`/flow/${pid}/create`, {
          name: 'x',
          _process: [],
          _option: { trigger: { on: ['create'] } },
        })
      ).error,
    ).toBe(1801);
    expect(
      (
        await admin(`/flow/${pid}/create`, {
          name: 'x',
          _process: [{ _type: 'input', _handle: 'i', _procedure: { fields: [] } }],
          _option: { _entity: orders, trigger: { on: ['create'] } },
        })
      ).error,
    ).toBe(1801);
    expect(
      (
        await admin(`/flow/${pid}/create`, {
          name: 'x',
          _process: [],
          _option: { _entity: orders, trigger: { on: ['drop'] } },
        })
      ).error,
    ).toBe(1801);
    // Switch the trigger off for the tests that follow.
    await admin(`/flow/${pid}/${trig}/update`, { _option: { _entity: orders } });
    await admin(`/flow/${pid}/${trig}/release`, {});
  });

  it('notify reaches the socket after the commit, and never for a failed run', async () => {
    const sock = connect(`http://127.0.0.1:${r.port}${SOCKET_NAMESPACE}`, {
      path: SOCKET_PATH,
      auth: { token: s.owner.token, project: pid, platform: 'app' },
      transports: ['websocket'],
      reconnection: false,
    });
    sockets.push(sock);
    await new Promise<void>((res, rej) => {
      sock.once('connect', () => res());
      sock.once('connect_error', rej);
    });
    const seen: { message: string; committed: boolean }[] = [];
    sock.on('notify', (p: Uint8Array) => {
      const n = unpackPayload<{ data: { message: string } }>(p);
      // What the database holds the moment the notice arrives.
      void rows(logs).then((l) =>
        seen.push({ message: n.data.message, committed: l.some((x) => x.msg === 'noted') }),
      );
    });
    const f = await make([
      log('noted'),
      {
        _type: 'notify',
        _handle: 'n',
        _procedure: { message: 'done {{state.log_noted.msg}}', users: '[user._id]' },
      },
      { _type: 'set', _handle: 'pad', _procedure: { value: '1' } },
    ]);
    expect((await exec(f)).error).toBe(0);
    await until(() => seen.length === 1, 5000, 'the notice');
    expect(seen[0]).toEqual({ message: 'done noted', committed: true });

    const failing = await make([
      { _type: 'notify', _handle: 'n', _procedure: { message: 'never', users: '[user._id]' } },
      { _type: 'code', _handle: 'boom', _procedure: { source: 'throw new Error("x")' } },
    ]);
    expect((await exec(failing)).error).toBe(1812);
    await test(f);
    await sleep(400);
    expect(seen.map((x) => x.message)).toEqual(['done noted']);
  });
});
