import { Avatar as RadixAvatar } from 'radix-ui';

export function Avatar({ initials, imageUrl }: { initials: string; imageUrl?: string | null }): React.JSX.Element {
  return (
    <RadixAvatar.Root className="inline-flex h-9 w-9 items-center justify-center overflow-hidden rounded-full bg-brand-100 text-sm font-semibold text-brand-700">
      {imageUrl ? <RadixAvatar.Image src={imageUrl} alt="" className="h-full w-full object-cover" /> : null}
      <RadixAvatar.Fallback>{initials}</RadixAvatar.Fallback>
    </RadixAvatar.Root>
  );
}
