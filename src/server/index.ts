/** The HTTP service (`crucible serve`): the public surface of `src/server/`. */
export { startServer, openService, loadProblems, type ServerHandle, type ServiceHandle, type ShutdownReport, type StartOptions } from './app.js';
export { ServeConfigSchema, type ServeConfig, type ServeConfigInput } from './config.js';
export { ERROR_CATALOG, ServiceError, type ErrorCode } from './errors.js';
export { AdmissionQueue, ShutdownError } from './admission.js';
