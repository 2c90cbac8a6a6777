/**
 * Font Awesome names that only the paid (Pro) set has, as real sites use them, each with the nearest
 * free icon. A page that names one shows the free icon, with a warning that says which.
 */
export const PRO_ONLY_ICONS: ReadonlyMap<string, string> = new Map([
  ['anthropic', 'robot'],
  ['arrows-repeat', 'repeat'],
  ['block-brick', 'cubes'],
  ['book-open-cover', 'book-open'],
  ['books', 'book'],
  ['brackets-curly', 'code'],
  ['browser', 'window-maximize'],
  ['chart-mixed', 'chart-column'],
  ['cup-togo', 'mug-hot'],
  ['cursor-click', 'arrow-pointer'],
  ['document', 'file-lines'],
  ['face-smiling-hands', 'face-smile'],
  ['flow', 'diagram-project'],
  ['key-skeleton', 'key'],
  ['laptop-mobile', 'laptop'],
  ['memo', 'note-sticky'],
  ['message-bot', 'robot'],
  ['message-code', 'message'],
  ['monitor-waveform', 'wave-square'],
  ['phone-arrow-down-left', 'phone'],
  ['phone-arrow-right', 'phone'],
  ['phone-arrow-up-right', 'phone'],
  ['rectangle-terminal', 'terminal'],
  ['rocket-launch', 'rocket'],
  ['snake', 'worm'],
  ['waveform', 'wave-square'],
  ['waveform-lines', 'wave-square'],
  ['window', 'window-maximize'],
])
