/** The app's config for each fake provider (what the env would say against the real one). */
import type { AlipayConfig, WeixinConfig, WxpayConfig, WxworkConfig } from '../../src/server/config.ts';
import type { FakeAlipay } from './alipay-gateway.ts';
import type { FakeWeixin } from './weixin-server.ts';
import type { FakeWxpay } from './wxpay-server.ts';
import type { FakeWxwork } from './wxwork-server.ts';

/** WeChat: the fake's main app is also the official account; `apps` are custom builds' apps. */
export const weixinConfigOf = (wx: FakeWeixin, apps: Record<string, string> = {}): WeixinConfig => ({
  appId: wx.appId,
  secret: wx.secret,
  apiBase: wx.url,
  openBase: wx.url,
  mpAppId: wx.appId,
  mpSecret: wx.secret,
  apps,
});

export const wxworkConfigOf = (ww: FakeWxwork): WxworkConfig => ({
  corps: [{ corpId: ww.corpId, agentId: ww.agentId, secret: ww.secret, projectId: undefined }],
  apiBase: ww.url,
  openBase: ww.url,
  loginBase: ww.url,
});

export const alipayConfigOf = (ali: FakeAlipay): AlipayConfig => ({
  appId: ali.appId,
  privateKey: ali.merchant.privateKey,
  alipayPublicKey: ali.alipayPublicKey,
  gateway: ali.gateway,
});

export const wxpayConfigOf = (wxp: FakeWxpay): WxpayConfig => ({
  mchId: wxp.mchId,
  appId: wxp.appId,
  serialNo: wxp.merchantSerial,
  privateKey: wxp.merchant.privateKey,
  apiV3Key: wxp.apiV3Key,
  platformPublicKey: wxp.platform.publicKey,
  platformSerial: wxp.platformSerial,
  baseUrl: wxp.url,
});
