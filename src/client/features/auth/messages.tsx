import { localizeMessage } from '../../i18n/messages';
import { useLanguage } from '../../i18n';
import { InlineMessage, type Severity } from './controls';

export interface Notice {
  severity: Severity;
  text: string;
}

/** The one message line of a login step (announced to screen readers). */
export function NoticeLine({ notice, testId }: { notice: Notice | null; testId: string }) {
  useLanguage(); // shown in the current language, also after a switch
  if (!notice) return null;
  return (
    <div role={notice.severity === 'error' ? 'alert' : 'status'} data-testid={testId}>
      <InlineMessage severity={notice.severity} text={localizeMessage(notice.text)} />
    </div>
  );
}

/** Blocks cut, copy and paste (spec section 5). */
export const noClipboard = {
  onCut: (e: { preventDefault(): void }) => e.preventDefault(),
  onCopy: (e: { preventDefault(): void }) => e.preventDefault(),
  onPaste: (e: { preventDefault(): void }) => e.preventDefault(),
};
