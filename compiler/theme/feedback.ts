/**
 * "Was this page helpful?" under every page: hidden until the site script shows it (it sends the
 * answer to the site's own `/_docs/events`, and stays hidden for readers with Do-Not-Track or Global
 * Privacy Control, and where there is no server to send to).
 */

/** Characters a comment may have; the event schema (schemas/api/insights.ts) allows the same. */
export const FEEDBACK_COMMENT_LIMIT = 1000

export const feedbackForm =
  '<form class="d-feedback" data-feedback hidden>' +
  '<p class="d-feedback-question" id="d-feedback-question">Was this page helpful?</p>' +
  '<div class="d-feedback-answers" role="group" aria-labelledby="d-feedback-question">' +
  '<button type="button" class="d-feedback-answer" data-helpful="yes">Yes</button>' +
  '<button type="button" class="d-feedback-answer" data-helpful="no">No</button></div>' +
  '<div class="d-feedback-more" hidden><label for="d-feedback-comment">What could be better? (optional)</label>' +
  `<textarea id="d-feedback-comment" name="comment" rows="3" maxlength="${FEEDBACK_COMMENT_LIMIT}"></textarea>` +
  '<button type="submit" class="d-feedback-send">Send</button></div>' +
  '<p class="d-feedback-thanks" role="status" hidden>Thank you for your feedback.</p></form>'
