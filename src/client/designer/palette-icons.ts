/**
 * The palette's kind icons (each kind names one in `meta.icon`), loaded as a chunk of their own
 * when the palette mounts. Named imports, not the package's namespace: a dynamic
 * `import('@ant-design/icons')` keeps every one of its 800-odd icons, and the bundler then served
 * the whole set (a 920 KB chunk) to each screen that imports a single icon — the login form and
 * the end user's data view included. A kind with an icon not listed here gets none in the palette;
 * palette-icons.test.ts names it.
 */
export {
  AppstoreOutlined,
  AreaChartOutlined,
  BarChartOutlined,
  BarcodeOutlined,
  BarsOutlined,
  BorderOuterOutlined,
  BorderOutlined,
  CalendarOutlined,
  CheckCircleOutlined,
  CheckSquareOutlined,
  DashOutlined,
  DotChartOutlined,
  DownSquareOutlined,
  EditOutlined,
  FieldNumberOutlined,
  FieldTimeOutlined,
  FileOutlined,
  FileTextOutlined,
  FontSizeOutlined,
  FormOutlined,
  FunnelPlotOutlined,
  GlobalOutlined,
  Html5Outlined,
  IdcardOutlined,
  InsertRowAboveOutlined,
  InsertRowBelowOutlined,
  LayoutOutlined,
  LineChartOutlined,
  MenuOutlined,
  PictureOutlined,
  PieChartOutlined,
  PrinterOutlined,
  ProfileOutlined,
  ProjectOutlined,
  QrcodeOutlined,
  SlidersOutlined,
  StarOutlined,
  SwapOutlined,
  TableOutlined,
  ThunderboltOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
