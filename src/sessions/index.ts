/**
 * Multi-turn sessions: the public surface for front ends (`crucible serve`'s `/v1/sessions`, an MCP server, a
 * debug loop). `SessionManager` opens and steps sessions of the `python`, `bash`, `sqlite` and `program`
 * environments; `formatFeedback` turns a verdict into feedback text within a budget.
 */
export { SessionManager, resolveLimits, type CreateSessionRequest, type SessionInfo, type SessionManagerOptions, type SessionStats } from './manager.js';
export { formatFeedback, DEFAULT_FEEDBACK_CHARS, MAX_FEEDBACK_CHARS, MIN_FEEDBACK_CHARS, type Feedback, type FailingTest, type FeedbackOptions } from './feedback.js';
export type { ProgramBackend, ProgramTask } from './environments/program.js';
export type { Environment } from './environments/environment.js';
export {
  DEFAULT_SESSION_LIMITS, ENVIRONMENT_KINDS, SESSION_LIMIT_RANGES, SessionError,
  type EnvironmentKind, type Observation, type SessionErrorCode, type SessionLimits, type StepOutcome,
} from './types.js';
