/** The columns of a usage record that every view of one reads (the admin API's rows, the console's records). */
export interface UsageRow {
  request_id: string;
  client_request_id: string | null;
  key_id: string;
  model_id: string;
  route: string;
  prompt_tokens: number;
  completion_tokens: number;
  outcome: string;
  status: number;
  created_at: Date;
  kind: string;
  subject_id: string | null;
}

/** Those columns as the admin API and the console name them. */
export function usageRowView(row: UsageRow) {
  return {
    requestId: row.request_id,
    clientRequestId: row.client_request_id,
    keyId: row.key_id,
    modelId: row.model_id,
    route: row.route,
    promptTokens: row.prompt_tokens,
    completionTokens: row.completion_tokens,
    outcome: row.outcome,
    status: row.status,
    at: row.created_at.toISOString(),
    kind: row.kind,
    subjectId: row.subject_id,
  };
}
