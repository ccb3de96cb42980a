/** The /sales hero video (poster, then the looping video and its pause button) hydrated alone (issue 16). */
import { hydrateRoot } from "react-dom/client";
import { HeroVideo } from "#app/components/ui/hero-video.tsx";

/** Hydrates the video server-rendered inside `container` by `<Island name="hero-video">`. */
export function mount(container: HTMLElement, props: Parameters<typeof HeroVideo>[0]): void {
  hydrateRoot(container, <HeroVideo {...props} />);
}
