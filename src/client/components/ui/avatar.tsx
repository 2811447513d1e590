import { Avatar as RadixAvatar } from 'radix-ui';

// The initials are drawn by CSS (::before), not written as text: they only repeat the name next to them, and as
// text they would make a button's visible words differ from its label (axe label-content-name-mismatch).

export function Avatar({ initials, imageUrl }: { initials: string; imageUrl?: string | null }): React.JSX.Element {
  return (
    <RadixAvatar.Root className="inline-flex h-9 w-9 items-center justify-center overflow-hidden rounded-full bg-brand-100 text-sm font-semibold text-brand-700">
      {imageUrl ? <RadixAvatar.Image src={imageUrl} alt="" className="h-full w-full object-cover" /> : null}
      <RadixAvatar.Fallback data-initials={initials} className="before:content-[attr(data-initials)]" />
    </RadixAvatar.Root>
  );
}
