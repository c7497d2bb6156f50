/** The route table (runtime spec §2), screens loaded lazily. */
import { type ComponentType, lazy, Suspense } from 'react';
import { createBrowserRouter, type RouteObject, redirect } from 'react-router';
import { PageLoading } from './shell/PageLoading.tsx';
import { guardLoader, resetLoader } from './shell/session.ts';
import { storedMode } from './stores/workbench.ts';

function screen(load: () => Promise<{ default: ComponentType }>) {
  const Screen = lazy(load);
  return (
    <Suspense fallback={<PageLoading />}>
      <Screen />
    </Suspense>
  );
}

export const routes: RouteObject[] = [
  {
    path: '/login',
    element: screen(() => import('./screens/login/LoginScreen.tsx')),
    children: [
      { index: true, element: screen(() => import('./screens/login/LoginForm.tsx')) },
      { path: 'register', element: screen(() => import('./screens/login/RegisterForm.tsx')) },
      { path: 'forget', element: screen(() => import('./screens/login/ForgetForm.tsx')) },
      { path: ':token', element: screen(() => import('./screens/login/TokenLogin.tsx')) },
    ],
  },
  { path: '/reset', loader: resetLoader },
  { path: '/dev/queue', element: screen(() => import('./screens/dev/QueueScreen.tsx')) },
  {
    // The page designer: full screen, outside the workbench frame, behind the same sign-in guard.
    path: '/dev/design/:page',
    loader: guardLoader,
    HydrateFallback: PageLoading,
    element: screen(() => import('./designer/DesignerScreen.tsx')),
  },
  {
    // The builder's workbench (mode dev); its screens load only here, never in the end-user entry.
    path: '/dev',
    loader: guardLoader,
    HydrateFallback: PageLoading,
    shouldRevalidate: ({ currentUrl, nextUrl }) => currentUrl.pathname !== nextUrl.pathname,
    element: screen(() => import('./screens/workbench/DevLayout.tsx')),
    children: [
      { index: true, loader: () => redirect('/dev/data') },
      { path: 'expired', element: screen(() => import('./screens/workbench/ExpiredScreen.tsx')) },
      {
        path: 'data',
        element: screen(() => import('./screens/workbench/DataLayout.tsx')),
        children: [
          { index: true, element: screen(() => import('./screens/workbench/DataHome.tsx')) },
          { path: ':entity', element: screen(() => import('./screens/workbench/EntityScreen.tsx')) },
        ],
      },
      { path: '*', element: screen(() => import('./screens/home/NotFound.tsx')) },
    ],
  },
  {
    path: '/',
    loader: guardLoader,
    HydrateFallback: PageLoading,
    // Sign-in is checked again whenever the path changes (a …/logout path must act).
    shouldRevalidate: ({ currentUrl, nextUrl }) => currentUrl.pathname !== nextUrl.pathname,
    element: screen(() => import('./screens/home/RootLayout.tsx')),
    children: [
      {
        index: true,
        // The persisted mode (builder spec §4): dev mode opens the workbench.
        loader: () => (storedMode() === 'dev' ? redirect('/dev') : null),
        element: screen(() => import('./screens/home/HomeScreen.tsx')),
      },
      { path: '*', element: screen(() => import('./screens/home/NotFound.tsx')) },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
