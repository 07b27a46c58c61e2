/**
 * The names on the stores' spans, all from the bridge's one list (otel/encoding/semconv.ts): the
 * database and server keys are the stable ones of @opentelemetry/semantic-conventions, the store
 * method is footprint.store.call.
 */
import { semconv } from '../otel/index.js';

export const {
  ATTR_DB_COLLECTION_NAME,
  ATTR_DB_NAMESPACE,
  ATTR_DB_OPERATION_NAME,
  ATTR_DB_QUERY_SUMMARY,
  ATTR_DB_RESPONSE_STATUS_CODE,
  ATTR_DB_SYSTEM_NAME,
  ATTR_FOOTPRINT_STORE_CALL,
  DB_SYSTEM_NAME_VALUE_POSTGRESQL,
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
} = semconv;
