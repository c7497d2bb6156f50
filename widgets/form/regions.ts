/**
 * The regions a form's `region` field offers (province / city / district), stored as one text
 * "广东省/深圳市/南山区". A sample of mainland China's larger cities, enough for addresses in a demo
 * shop; a builder needing every county binds a table instead.
 */
export interface Region {
  value: string;
  label: string;
  children?: Region[];
}

const r = (name: string, children?: Region[]): Region => ({
  value: name,
  label: name,
  ...(children ? { children } : {}),
});
const city = (name: string, districts: string[]) =>
  r(
    name,
    districts.map((d) => r(d)),
  );

export const REGIONS: Region[] = [
  r('北京市', [city('北京市', ['东城区', '西城区', '朝阳区', '海淀区', '丰台区', '通州区'])]),
  r('上海市', [city('上海市', ['黄浦区', '徐汇区', '静安区', '浦东新区', '闵行区', '杨浦区'])]),
  r('天津市', [city('天津市', ['和平区', '河西区', '南开区', '滨海新区'])]),
  r('重庆市', [city('重庆市', ['渝中区', '江北区', '南岸区', '渝北区'])]),
  r('广东省', [
    city('广州市', ['天河区', '越秀区', '海珠区', '番禺区', '白云区']),
    city('深圳市', ['南山区', '福田区', '罗湖区', '宝安区', '龙岗区']),
    city('珠海市', ['香洲区', '金湾区', '斗门区']),
    city('东莞市', ['南城街道', '东城街道', '松山湖']),
  ]),
  r('浙江省', [
    city('杭州市', ['西湖区', '上城区', '拱墅区', '滨江区', '余杭区']),
    city('宁波市', ['海曙区', '江北区', '鄞州区']),
    city('温州市', ['鹿城区', '龙湾区', '瓯海区']),
  ]),
  r('江苏省', [
    city('南京市', ['玄武区', '秦淮区', '鼓楼区', '建邺区']),
    city('苏州市', ['姑苏区', '工业园区', '吴中区', '昆山市']),
    city('无锡市', ['梁溪区', '滨湖区', '新吴区']),
  ]),
  r('四川省', [
    city('成都市', ['锦江区', '青羊区', '武侯区', '高新区']),
    city('绵阳市', ['涪城区', '游仙区']),
  ]),
  r('湖北省', [
    city('武汉市', ['江岸区', '武昌区', '洪山区', '江汉区']),
    city('宜昌市', ['西陵区', '伍家岗区']),
  ]),
  r('陕西省', [city('西安市', ['雁塔区', '碑林区', '未央区', '长安区'])]),
  r('山东省', [
    city('济南市', ['历下区', '市中区', '槐荫区']),
    city('青岛市', ['市南区', '市北区', '崂山区', '黄岛区']),
  ]),
  r('福建省', [
    city('福州市', ['鼓楼区', '台江区', '仓山区']),
    city('厦门市', ['思明区', '湖里区', '集美区']),
  ]),
];

/** "广东省/深圳市/南山区" ↔ ['广东省', '深圳市', '南山区']. */
export const regionPath = (v: unknown): string[] => (typeof v === 'string' && v ? v.split('/') : []);
export const regionText = (path: readonly unknown[]): string => path.map(String).join('/');
