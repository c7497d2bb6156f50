/**
 * Stand-ins for the messaging apps' JS-SDK scripts, served by the fakes (`/fake/jweixin.js`,
 * `/fake/jwxwork.js`). Like the real ones they are thin: `wx.config` hands the signature to the
 * native client through `window.WeixinJSBridge.invoke('preVerifyJSAPI', …)` and calls `wx.ready`
 * or `wx.error` with its answer; `wx.agentConfig` (WeCom) does the same with `agentConfig`;
 * `wx.invoke` passes any other call (e.g. `getContext`) to the client. The client itself is the
 * test: it injects a `WeixinJSBridge` whose checks are the fakes' `verify()` (tests/e2e/wechat.spec.ts).
 */

/** WeChat's jweixin: wx.config / ready / error / invoke. */
export const FAKE_JWEIXIN = `(function () {
  var ready = [], errors = [], state = null, why = null;
  function bridge() { return window.WeixinJSBridge; }
  function settle(ok, res) {
    state = ok ? 'ok' : 'error';
    why = res;
    (ok ? ready : errors).splice(0).forEach(function (fn) { fn(res); });
  }
  var wx = {
    config: function (c) {
      var b = bridge();
      if (!b) return setTimeout(function () { settle(false, { errMsg: 'config:not in the app' }); });
      b.invoke('preVerifyJSAPI', {
        appId: c.appId,
        verifyTimestamp: c.timestamp,
        verifyNonceStr: c.nonceStr,
        verifySignature: c.signature,
        verifyJsApiList: c.jsApiList || []
      }, function (res) {
        var ok = res && res.err_msg === 'pre_verify_jsapi:ok';
        settle(ok, ok ? res : { errMsg: 'config:invalid signature' });
      });
    },
    ready: function (fn) { if (state === 'ok') fn(why); else ready.push(fn); },
    error: function (fn) { if (state === 'error') fn(why); else errors.push(fn); },
    invoke: function (name, args, cb) {
      var b = bridge();
      if (!b) return cb({ err_msg: name + ':fail not in the app' });
      b.invoke(name, args || {}, cb);
    }
  };
  window.wx = window.jWeixin = wx;
})();
`;

/** WeCom's jwxwork: adds wx.agentConfig to the loaded jweixin. */
export const FAKE_JWXWORK = `(function () {
  var wx = window.wx;
  if (!wx) throw new Error('jwxwork needs jweixin loaded first');
  wx.agentConfig = function (c) {
    wx.invoke('agentConfig', {
      corpid: c.corpid,
      agentid: c.agentid,
      timestamp: c.timestamp,
      nonceStr: c.nonceStr,
      signature: c.signature,
      jsApiList: c.jsApiList || []
    }, function (res) {
      if (res && res.err_msg === 'agentConfig:ok') c.success && c.success(res);
      else c.fail && c.fail(res || { err_msg: 'agentConfig:fail' });
    });
  };
})();
`;

/** Answer a fake script (or nothing: not a script path). */
export function serveScript(path: string, res: import('node:http').ServerResponse): boolean {
  const body = path === '/fake/jweixin.js' ? FAKE_JWEIXIN : path === '/fake/jwxwork.js' ? FAKE_JWXWORK : null;
  if (body === null) return false;
  res.writeHead(200, { 'content-type': 'application/javascript; charset=utf-8' });
  res.end(body);
  return true;
}
