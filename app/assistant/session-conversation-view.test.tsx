// @vitest-environment happy-dom
/**
 * Issue 18 §4 in the browser, against a stubbed API: « Parler à un
 * technicien » says the new session's code (or the server's French refusal),
 * and the technician's « Conversation avec l'assistant » lists the attached
 * messages with "Client" / "Assistant" and their fr-FR time (an answer's
 * links named, issue 40), and nothing for a session started without one.
 */
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SESSION_MESSAGES } from "#app/remote-support/protocol.ts";
import { formatMessageTime, type SessionConversationMessage } from "./session-conversation";
import { SessionConversationView } from "./session-conversation-view";
import { TechnicianHandoff } from "./technician-handoff";

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

function stubFetch(answer: (url: string, method: string) => Response): string[] {
  const calls: string[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const method = init?.method ?? "GET";
    calls.push(`${method} ${String(input)}`);
    return answer(String(input), method);
  });
  return calls;
}

afterEach(() => vi.restoreAllMocks());

describe("« Parler à un technicien »", () => {
  it("starts the session from the assistant and says its code", async () => {
    const calls = stubFetch(() => json(201, { session: { code: "ACDE34" }, attached: 2 }));
    render(<TechnicianHandoff disabled={false} />);
    await userEvent.click(screen.getByRole("button", { name: "Parler à un technicien" }));
    await waitFor(() =>
      expect(screen.getByRole("status")).toHaveTextContent(/communiquez le code ACD E34 au technicien/),
    );
    expect(calls).toEqual(["POST /api/sessions/from-assistant"]);
  });

  it("shows the server's refusal, and waits while the assistant writes", async () => {
    stubFetch(() => json(429, { message: SESSION_MESSAGES.tooManySessions }));
    const { rerender } = render(<TechnicianHandoff disabled />);
    expect(screen.getByRole("button", { name: "Parler à un technicien" })).toBeDisabled();
    rerender(<TechnicianHandoff disabled={false} />);
    await userEvent.click(screen.getByRole("button", { name: "Parler à un technicien" }));
    await waitFor(() => expect(screen.getByRole("alert")).toHaveTextContent(SESSION_MESSAGES.tooManySessions));
  });
});

describe("« Conversation avec l'assistant »", () => {
  const conversation: SessionConversationMessage[] = [
    { role: "user", content: "Combien coûte l'écran d'un iPhone 13 ?", createdAt: "2026-11-24T13:05:00.000Z" },
    { role: "assistant", content: "Écran : à partir de 119 €", createdAt: "2026-11-24T13:05:02.000Z" },
  ];

  it("lists the attached messages with who said them and when", async () => {
    const calls = stubFetch(() => json(200, { conversation }));
    render(<SessionConversationView code="ACDE34" />);
    const list = await screen.findByRole("list", { name: "Conversation avec l'assistant" });
    const items = within(list).getAllByRole("listitem");
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent(`Client · ${formatMessageTime(conversation[0]!.createdAt)}`);
    expect(items[0]).toHaveTextContent(conversation[0]!.content);
    expect(items[1]).toHaveTextContent(`Assistant · ${formatMessageTime(conversation[1]!.createdAt)}`);
    expect(within(items[1]!).getByText(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/)).toHaveAttribute(
      "datetime",
      conversation[1]!.createdAt,
    );
    expect(calls).toEqual(["GET /api/sessions/ACDE34/conversation"]);
  });

  it("folds into a disclosure, open at first, beside the remote view's chat", async () => {
    stubFetch(() => json(200, { conversation }));
    render(<SessionConversationView code="ACDE34" collapsible />);
    const list = await screen.findByRole("list", { name: "Conversation avec l'assistant" });
    const disclosure = list.closest("details")!;
    expect(disclosure).toHaveAttribute("open");
    expect(within(disclosure).getByRole("heading", { level: 3 })).toHaveTextContent("Conversation avec l'assistant");
    expect(within(list).getAllByRole("listitem")).toHaveLength(2);
    // It scrolls past its height: keyboard users reach it.
    expect(list).toHaveAttribute("tabindex", "0");
  });

  it("names the answer's links, without links that would leave the session (issue 40)", async () => {
    stubFetch(() =>
      json(200, {
        conversation: [
          conversation[0],
          {
            ...conversation[1],
            content:
              "(Réponse de l'assistant automatique de l'atelier.)\n[Prendre rendez-vous : Écran, iPhone 13](/rendez-vous?modele=iphone-13&reparation=ecran)",
          },
        ],
      }),
    );
    render(<SessionConversationView code="ACDE34" />);
    const list = await screen.findByRole("list", { name: "Conversation avec l'assistant" });
    const answer = within(list).getAllByRole("listitem")[1]!;
    expect(answer).toHaveTextContent(
      /^Assistant · .+Prendre rendez-vous : Écran, iPhone 13 \(\/rendez-vous\?modele=iphone-13&reparation=ecran\)$/,
    );
    expect(answer).not.toHaveTextContent("automatique");
    expect(within(list).queryAllByRole("link")).toEqual([]);
  });

  it("shows nothing for a session started without a conversation", async () => {
    const calls = stubFetch(() => json(200, { conversation: null }));
    const { container } = render(<SessionConversationView code="ACDE34" />);
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(container).toBeEmptyDOMElement();
  });
});
