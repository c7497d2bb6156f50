/**
 * Route schemas compiled on first use instead of at start.
 *
 * Fastify compiles every route's request validator (ajv) and response serializer
 * (fast-json-stringify) while the app gets ready: for our few hundred routes that was most of the
 * cold start. These factories wrap Fastify's own ones and hand back a function that compiles the
 * real one the first time it is called, so a server answers its first requests sooner; `warmUp()`
 * then compiles what is left in small slices while the server idles, so later first calls do not
 * pay for it either and a broken schema still shows within moments of start.
 *
 * Behaviour is Fastify's: the same compilers with the same options and shared schemas; only the
 * moment of compiling moves.
 */
import AjvCompiler from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type Compile<F> = (route: unknown) => F;
type Factory<F> = (externalSchemas: unknown, options: unknown) => Compile<F>;
type Validate = ((data: unknown) => unknown) & { errors?: unknown };
type Serialize = (data: unknown) => string;

/** Compilations not yet done, oldest first. */
const pending = new Set<() => void>();

function lazyFactory<F extends (...args: never[]) => unknown>(
  factory: Factory<F>,
  wrap: (get: () => F) => F,
): Factory<F> {
  return (externalSchemas, options) => {
    const compile = factory(externalSchemas, options);
    return (route) => {
      let fn: F | undefined;
      const get = () => {
        if (!fn) {
          pending.delete(get);
          fn = compile(route);
        }
        return fn;
      };
      pending.add(get);
      return wrap(get);
    };
  };
}

const lazyValidatorFactory = lazyFactory<Validate>(AjvCompiler() as Factory<Validate>, (get) => {
  const validate = ((data: unknown) => get()(data)) as Validate;
  // Fastify reads ajv's errors from the function it called.
  Object.defineProperty(validate, 'errors', { get: () => get().errors });
  return validate;
});

const lazySerializerFactory = lazyFactory<Serialize>(
  SerializerSelector() as Factory<Serialize>,
  (get) => (data: unknown) => get()(data),
);

type CompilersFactory = NonNullable<
  NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']
>;

/** For Fastify's `schemaController.compilersFactory` option. */
export const lazyCompilers = {
  buildValidator: lazyValidatorFactory,
  buildSerializer: lazySerializerFactory,
} as unknown as CompilersFactory;

/**
 * Compile what no request has needed yet, a few at a time between other work, until none is left
 * or `signal` aborts. Errors are reported, not thrown (the route answers 500 when called).
 */
export function warmUp(onError: (err: unknown) => void, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const step = () => {
      if (signal?.aborted) return resolve();
      const started = performance.now();
      for (const get of pending) {
        try {
          get();
        } catch (err) {
          pending.delete(get);
          onError(err);
        }
        if (performance.now() - started > 8) break;
      }
      if (pending.size === 0) return resolve();
      setImmediate(step);
    };
    setImmediate(step);
  });
}

/** How many route compilations are still pending (tests, diagnostics). */
export const pendingCompilations = () => pending.size;
