/** Fixed top navigation bar (spec §2 "Shared layout"). */
import { ChevronDown, Wrench } from "lucide-react";
import { Link, NavLink } from "react-router";
import { mainNav, WAYS_IN_TITLE, waysInNav } from "#app/config/navigation.ts";
import { useShop } from "#app/shop/use-shop.ts";
import { cn } from "#app/utils/cn.ts";
import { MobileMenu } from "./mobile-menu";

export function SiteHeader() {
  const shop = useShop();
  return (
    <header className="fixed inset-x-0 top-0 z-40 border-b border-slate-800 bg-slate-950/90 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6 lg:px-8">
        <Link
          to="/"
          className="flex items-center gap-2 rounded-lg text-lg font-bold text-white focus-visible:outline-2 focus-visible:outline-sky-300"
        >
          <Wrench aria-hidden="true" className="size-6 text-sky-300" />
          <span>{shop.name}</span>
        </Link>
        <nav aria-label="Navigation principale" className="hidden lg:block">
          <ul className="flex items-center gap-1">
            {mainNav.map((item) => (
              <li key={item.to}>
                <NavLink
                  to={item.to}
                  end
                  className={({ isActive }) =>
                    cn(
                      "rounded-lg px-3 py-2 text-sm font-medium text-slate-200 hover:bg-slate-800 hover:text-white focus-visible:outline-2 focus-visible:outline-sky-300",
                      isActive && "text-sky-300",
                    )
                  }
                >
                  {item.label}
                </NavLink>
              </li>
            ))}
            <li className="relative">
              {/* A native disclosure: it opens on the content pages too, which run no React (issue 16). */}
              <details className="group">
                <summary className="flex cursor-pointer list-none items-center gap-1 rounded-lg px-3 py-2 text-sm font-medium text-slate-200 hover:bg-slate-800 hover:text-white focus-visible:outline-2 focus-visible:outline-sky-300 [&::-webkit-details-marker]:hidden">
                  {WAYS_IN_TITLE}
                  <ChevronDown aria-hidden="true" className="size-4 transition-transform group-open:rotate-180" />
                </summary>
                <ul className="absolute right-0 mt-2 flex w-64 flex-col rounded-xl border border-slate-700 bg-slate-900 p-2 shadow-xl">
                  {waysInNav.map((item) => (
                    <li key={item.to}>
                      <Link
                        to={item.to}
                        className="block rounded-lg px-3 py-2 text-sm text-slate-100 hover:bg-slate-800 focus-visible:outline-2 focus-visible:outline-sky-300"
                      >
                        {item.label}
                      </Link>
                    </li>
                  ))}
                </ul>
              </details>
            </li>
          </ul>
        </nav>
        <MobileMenu />
      </div>
    </header>
  );
}
