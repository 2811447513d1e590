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
