// Converse stop reasons → IR: a guardrail or the content filter stopping the answer is content_filter.
import type { IrStopReason } from '../../ir/chat-ir.schema';

export function fromConverseStopReason(reason: string): IrStopReason {
  switch (reason) {
    case 'tool_use':
    case 'max_tokens':
    case 'stop_sequence':
      return reason;
    case 'model_context_window_exceeded':
      return 'max_tokens';
    case 'guardrail_intervened':
    case 'content_filtered':
      return 'content_filter';
    default:
      return 'end_turn';
  }
}
