import { messageRecipients, messages } from '../../db/schema/messages.js';
import { readModel } from '../../db/read-model.js';

/**
 * What modules/messages lets the other modules read (docs/architecture.md, "Database"): read-only
 * projections they join like tables, and the row types. Writes go through this module.
 */
export const messageRecipientsView = readModel(messageRecipients, 'message_recipients_view');
export const messagesView = readModel(messages, 'messages_view');
export type MessageRecipientsRow = typeof messageRecipients.$inferSelect;
export type MessagesRow = typeof messages.$inferSelect;
