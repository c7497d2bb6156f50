/** The route table (runtime spec §2), screens loaded lazily. */
import { type ComponentType, Suspense, useState } from 'react';
import { createBrowserRouter, Navigate, type RouteObject, redirect } from 'react-router';
import { PAGE_SIZE_DEFAULT } from '../shared/constants.ts';
import { loadBuilderTexts } from './i18n/index.ts';
import {
  appPageScreen,
  appPrintScreen,
  displayScreen,
  type LazyScreen,
  lazyScreen,
  listScreen,
  pageScreen,
  rootLayout,
  type ScreenModule,
} from './lazy-screens.ts';
import { prefetchPage, storedProject, warmRuntime } from './runtime/page-prefetch.ts';
import { findEntry } from './shell/menu.ts';
import { PROJECT_ID } from './shell/navigation.ts';
import { PageLoading } from './shell/PageLoading.tsx';
import { guardLoader, resetLoader } from './shell/session.ts';
import { useShell } from './stores/shell.ts';
import { storedMode } from './stores/workbench.ts';
import { prefetchView } from './views/view-prefetch.ts';
import { loadSettings, settingsKey } from './views/view-settings.ts';

/**
 * A screen already loaded (a route loader preloaded it) draws at once: the lazy wrapper would
 * suspend once, and React holds a revealed Suspense boundary back for up to 300 ms after its
 * fallback showed. Chosen once per mount, so a chunk arriving later never remounts the screen.
 */
function ScreenView({ screen: s }: { screen: LazyScreen }) {
  const [View] = useState<ComponentType>(() => s.loaded ?? s.Lazy);
  return <View />;
}

function screen(importer: () => Promise<ScreenModule>) {
  const s = lazyScreen(importer);
  return (
    <Suspense fallback={<PageLoading />}>
      <ScreenView key={s.id} screen={s} />
    </Suspense>
  );
}

/**
 * A builder screen (designer, workbench, administration, user center): its chunk and the builder
 * strings load together, so the end-user entry does not carry those strings.
 */
function builder(importer: () => Promise<ScreenModule>): () => Promise<ScreenModule> {
  return () => Promise.all([importer(), loadBuilderTexts()]).then(([m]) => m);
}

/**
 * Route loader of a page screen: the page JSON, the renderer and the screen chunks all start now.
 * The navigation waits for the screens (the old screen stays up meanwhile; on a cold load the
 * hydrate fallback shows), so the new screen draws without suspending: a fallback shown on the way
 * would make React hold the page back for up to 300 ms after it. The JSON is not waited for.
 */
async function pageLoader(
  screens: (() => Promise<ScreenModule>)[],
  project: string | null,
  id?: string,
  display = false,
): Promise<null> {
  // The JSON first: queuing the chunks' preload links takes the main thread a while on a cold load.
  const answer = prefetchPage(project, id, display);
  warmRuntime();
  await Promise.all(
    screens.map((importer) =>
      lazyScreen(importer)
        .load()
        .catch(() => undefined),
    ),
  );
  return answer;
}

/**
 * The project a /page or /display route will show, as far as a loader can know it before the
 * user's systems are listed: the path's custom prefix, the active one, else the stored choice.
 */
function shownProject(custom: string | undefined): string | null {
  return custom?.toLowerCase() ?? useShell.getState().custom ?? storedProject();
}

/**
 * How long a list entry's navigation waits for the table's meta and first page before it draws the
 * view without them (ms): a slow answer then comes in behind a drawn view and its spinner.
 */
const LIST_DATA_WAIT_MS = 500;

/**
 * Route loader of a list menu entry: the table's meta and first page start with the navigation (the
 * data view takes them), so they do not wait for the screen to render and commit; an entry the
 * user's menu does not hold, or one showing a dataset, starts no call. The navigation waits for the
 * screen's chunk (as a page's does), so the list draws without a fallback and its hold-back, and
 * for those two answers (up to LIST_DATA_WAIT_MS), so the view draws once with its fields and rows.
 */
async function listLoader(page: string): Promise<null> {
  const { projectId, menu } = useShell.getState();
  const entry = projectId ? findEntry(menu, (n) => n._type === 'table' && n._value === page) : null;
  let data: Promise<void> = Promise.resolve();
  if (projectId && entry && (entry as { _dataset?: boolean })._dataset !== true) {
    // A kept grouping sorts the first page once the fields are in (DataView's `early`): not asked here.
    const grouped = loadSettings(settingsKey(projectId, page)).group.length > 0;
    data = prefetchView(
      projectId,
      page,
      grouped ? undefined : { page: { index: 1, size: PAGE_SIZE_DEFAULT } },
      LIST_DATA_WAIT_MS,
    );
  }
  await Promise.all([
    lazyScreen(listScreen)
      .load()
      .catch(() => undefined),
    data,
  ]);
  return null;
}

/** Sign-in, registration, forgot password and token sign-in (one screen, four modes). */
const loginChildren = (): RouteObject[] => [
  { index: true, element: screen(() => import('./screens/login/LoginForm.tsx')) },
  { path: 'register', element: screen(() => import('./screens/login/RegisterForm.tsx')) },
  { path: 'forget', element: screen(() => import('./screens/login/ForgetForm.tsx')) },
  { path: ':token', element: screen(() => import('./screens/login/TokenLogin.tsx')) },
];

/**
 * The root layout's screens (spec route table), under / and under a {custom} project prefix. Under
 * / only (rule 1: /app paths take no prefix), the menu's page entries at /app/{project}/{page}
 * (rule 9) are framed by the same layout, so moving between lists and pages keeps the shell.
 */
const rootChildren = (app = false): RouteObject[] => [
  ...(app
    ? [
        {
          path: 'app/:project/:page',
          loader: ({ params }: { params: Record<string, string | undefined> }) =>
            pageLoader([rootLayout, appPageScreen], params.project ?? null, params.page),
          element: screen(appPageScreen),
        },
      ]
    : []),
  {
    index: true,
    // The persisted mode (builder spec §4): dev mode opens the workbench.
    loader: () => (storedMode() === 'dev' ? redirect('/dev') : null),
    element: screen(() => import('./screens/home/HomeScreen.tsx')),
  },
  {
    path: 'home/:page',
    loader: ({ params }: { params: Record<string, string | undefined> }) => listLoader(params.page ?? ''),
    element: screen(listScreen),
  },
  // A dataset on its own: where a role home of kind dataset opens.
  { path: 'dataset/:id', element: screen(() => import('./screens/home/DatasetScreen.tsx')) },
  { path: 'user', element: screen(builder(() => import('./screens/user/UserCenter.tsx'))) },
  // The sample apps (spec route table: /playground/...), opened in the system that holds them.
  { path: 'playground/:app', element: screen(() => import('./screens/playground/PlaygroundScreen.tsx')) },
  { path: 'upgrade', element: screen(() => import('./screens/home/UpgradeScreen.tsx')) },
  { path: 'no-authority', element: screen(() => import('./screens/home/NoAuthority.tsx')) },
  // Administration area (second document): owners and admins; sections not built yet say so.
  {
    path: 'system',
    element: screen(builder(() => import('./screens/system/SystemLayout.tsx'))),
    children: [
      { index: true, element: <Navigate to="auth" replace /> },
      { path: 'menu', element: screen(builder(() => import('./screens/workbench/MenusScreen.tsx'))) },
      { path: 'auth', element: screen(builder(() => import('./screens/system/AuthScreen.tsx'))) },
      // The brief's name for the permission screen; the spec's route is /system/auth.
      { path: 'role', element: <Navigate to="../auth" replace /> },
      { path: 'user', element: screen(builder(() => import('./screens/system/UserScreen.tsx'))) },
      { path: 'project', element: screen(builder(() => import('./screens/system/ProjectScreen.tsx'))) },
      { path: 'schedule', element: screen(builder(() => import('./screens/system/ScheduleScreen.tsx'))) },
      { path: 'i18n', element: screen(builder(() => import('./screens/system/I18nScreen.tsx'))) },
      { path: 'share/*', element: screen(builder(() => import('./screens/system/ShareScreen.tsx'))) },
      { path: 'deploy', element: screen(builder(() => import('./screens/system/DeployScreen.tsx'))) },
      // Advanced data-table config (builder spec §2): the list, and one table's settings.
      {
        path: 'data-advanced',
        element: screen(builder(() => import('./screens/system/DataAdvancedScreen.tsx'))),
      },
      { path: 'data', element: screen(builder(() => import('./screens/system/DataAdvancedScreen.tsx'))) },
      {
        path: 'data/:entity',
        element: screen(builder(() => import('./screens/system/DataTableScreen.tsx'))),
      },
      // The administration's feature switches and this browser's debug / early-access modes.
      { path: 'features', element: screen(builder(() => import('./screens/system/FeaturesScreen.tsx'))) },
      {
        path: 'simple/:entity?',
        element: screen(builder(() => import('./screens/system/SimpleScreen.tsx'))),
      },
      { path: '*', element: screen(builder(() => import('./screens/system/SystemPlaceholder.tsx'))) },
    ],
  },
  // Joining a system by an invitation's link, or by its code.
  { path: 'join/:link?', element: screen(builder(() => import('./screens/system/JoinScreen.tsx'))) },
  {
    path: 'page/:id',
    loader: ({ params }) => pageLoader([rootLayout, pageScreen], shownProject(params.custom), params.id),
    element: screen(pageScreen),
  },
  {
    path: 'display/:id',
    loader: ({ params }) =>
      pageLoader([rootLayout, displayScreen, pageScreen], shownProject(params.custom), params.id, true),
    element: screen(displayScreen),
  },
  { path: '*', element: screen(() => import('./screens/home/NotFound.tsx')) },
];

/**
 * Under `/:custom`: the guard runs first (…/logout, sign-in), then a leading segment that is not a
 * 24-hex project id is no custom prefix: not found.
 */
function customOnly(loader: typeof guardLoader) {
  return async (args: { request: Request; params: Record<string, string | undefined> }) => {
    const answer = await loader(args);
    if (!PROJECT_ID.test(args.params.custom ?? '')) throw new Response('', { status: 404 });
    return answer;
  };
}

export const routes: RouteObject[] = [
  {
    path: '/login',
    element: screen(() => import('./screens/login/LoginScreen.tsx')),
    children: loginChildren(),
  },
  { path: '/pc-only', element: screen(() => import('./screens/home/PcOnly.tsx')) },
  { path: '/reset', loader: resetLoader },
  { path: '/dev/queue', element: screen(builder(() => import('./screens/dev/QueueScreen.tsx'))) },
  // Page runtime: the draft for builders, and app pages' print layout (on its own, no shell).
  {
    path: '/dev/preview',
    loader: guardLoader,
    HydrateFallback: PageLoading,
    element: screen(builder(() => import('./screens/page/PreviewScreen.tsx'))),
  },
  {
    path: '/app/:project/print/:page',
    loader: guardLoader,
    HydrateFallback: PageLoading,
    children: [
      {
        index: true,
        // Page `-` is the plain print document of a new-window print: no page to fetch.
        loader: ({ params }) =>
          pageLoader([appPrintScreen], params.project ?? null, params.page === '-' ? undefined : params.page),
        element: screen(appPrintScreen),
      },
    ],
  },
  {
    path: '/dev/provider',
    loader: guardLoader,
    HydrateFallback: PageLoading,
    element: screen(builder(() => import('./screens/dev/ProviderScreen.tsx'))),
  },
  {
    // The page designer: full screen, outside the workbench frame, behind the same sign-in guard.
    path: '/dev/design/:page',
    loader: guardLoader,
    HydrateFallback: PageLoading,
    element: screen(builder(() => import('./designer/DesignerScreen.tsx'))),
  },
  {
    // The builder's workbench (mode dev); its screens load only here, never in the end-user entry.
    path: '/dev',
    loader: guardLoader,
    HydrateFallback: PageLoading,
    shouldRevalidate: ({ currentUrl, nextUrl }) => currentUrl.pathname !== nextUrl.pathname,
    element: screen(builder(() => import('./screens/workbench/DevLayout.tsx'))),
    children: [
      { index: true, loader: () => redirect('/dev/data') },
      { path: 'expired', element: screen(builder(() => import('./screens/workbench/ExpiredScreen.tsx'))) },
      {
        path: 'data',
        element: screen(builder(() => import('./screens/workbench/DataLayout.tsx'))),
        children: [
          { index: true, element: screen(builder(() => import('./screens/workbench/DataHome.tsx'))) },
          { path: ':entity', element: screen(builder(() => import('./screens/workbench/EntityScreen.tsx'))) },
        ],
      },
      { path: 'pages', element: screen(builder(() => import('./screens/workbench/PagesScreen.tsx'))) },
      { path: 'menus', element: screen(builder(() => import('./screens/workbench/MenusScreen.tsx'))) },
      { path: 'programs', element: screen(builder(() => import('./screens/workbench/ProgramsScreen.tsx'))) },
      { path: 'datasets', element: screen(builder(() => import('./screens/workbench/DatasetsScreen.tsx'))) },
      // The widget gallery: every kind with its property panel (designer/panel).
      { path: 'panel-lab', element: screen(builder(() => import('./designer/panel/PanelLab.tsx'))) },
      { path: '*', element: screen(() => import('./screens/home/NotFound.tsx')) },
    ],
  },
  {
    path: '/',
    loader: guardLoader,
    HydrateFallback: PageLoading,
    // Sign-in is checked again whenever the path changes (a …/logout path must act).
    shouldRevalidate: ({ currentUrl, nextUrl }) => currentUrl.pathname !== nextUrl.pathname,
    element: screen(rootLayout),
    children: rootChildren(true),
  },
  // The optional leading {custom} project segment (navigation rule 2).
  {
    path: '/:custom/login',
    loader: customOnly(guardLoader),
    errorElement: screen(() => import('./screens/home/NotFound.tsx')),
    element: screen(() => import('./screens/login/LoginScreen.tsx')),
    children: loginChildren(),
  },
  {
    path: '/:custom',
    loader: customOnly(guardLoader),
    HydrateFallback: PageLoading,
    errorElement: screen(() => import('./screens/home/NotFound.tsx')),
    shouldRevalidate: ({ currentUrl, nextUrl }) => currentUrl.pathname !== nextUrl.pathname,
    element: screen(rootLayout),
    children: rootChildren(),
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
