import { Spinner } from '../components/ui/spinner';

/** A full-screen status line for loading states ('Checking system status...'). */
export function StatusScreen({ text }: { text: string }): React.JSX.Element {
  return (
    <main className="flex min-h-screen items-center justify-center p-4" aria-busy="true">
      <p role="status" className="flex items-center gap-2 text-slate-700">
        <Spinner /> {text}
      </p>
    </main>
  );
}

/**
 * What a signed-in user sees while the dashboard's code loads: the dashboard's own title where it will stand, and
 * the status line (issue 21 item 18: the page's frame is on screen as soon as the user is known, not after every
 * chunk of the dashboard has arrived on a slow link).
 */
export function StaffFrame({ appName, subtitle, text }: { appName: string; subtitle: string; text: string }): React.JSX.Element {
  return (
    <div className="min-h-screen pb-8 pt-14" aria-busy="true">
      <main className="mx-auto flex max-w-7xl flex-col gap-6 px-4 py-6">
        <div>
          <h1 className="text-2xl font-bold text-slate-900">{appName}</h1>
          <p className="text-sm text-slate-600">{subtitle}</p>
        </div>
        <p role="status" className="flex items-center gap-2 text-slate-700">
          <Spinner /> {text}
        </p>
      </main>
    </div>
  );
}
