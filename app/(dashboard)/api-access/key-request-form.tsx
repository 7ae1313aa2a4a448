"use client";
// The key-request form. It is a plain HTML form posting to /api/auth/key-requests, so it works without JavaScript
// (the API redirects back with the reference or the field errors); with JavaScript it posts in place and shows the
// API's problem+json field errors next to the fields.
import { useEffect, useRef, useState } from "react";

interface FieldError {
  parameter: string;
  detail: string;
}

const FIELDS = {
  name: "Name or organisation",
  email: "Contact email",
  use_case: "Use case",
  requests_per_minute: "Expected requests per minute",
  requests_per_day: "Expected requests per day",
  desired_tier: "Desired tier",
} as const;

type FieldName = keyof typeof FIELDS;

export function KeyRequestForm({
  initialReference,
  initialErrors,
  initialValues,
}: {
  initialReference: string | null;
  initialErrors: FieldError[];
  initialValues: Record<string, string>;
}) {
  const [reference, setReference] = useState(initialReference);
  const [errors, setErrors] = useState(initialErrors);
  const [submitting, setSubmitting] = useState(false);
  // Until hydration the browser's own validation applies (no JavaScript); afterwards the API's messages are shown.
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (formRef.current) formRef.current.noValidate = true;
  }, []);

  const errorFor = (field: string) => errors.filter((e) => e.parameter === field).map((e) => e.detail);
  const formErrors = errors.filter((e) => !(e.parameter in FIELDS));

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    setSubmitting(true);
    try {
      const response = await fetch(form.action, {
        method: "POST",
        headers: { Accept: "application/json", "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(new FormData(form) as unknown as Record<string, string>),
      });
      const body = (await response.json().catch(() => ({}))) as { reference?: string; errors?: FieldError[]; detail?: string };
      if (response.ok && body.reference) {
        setErrors([]);
        setReference(body.reference);
        form.reset();
        return;
      }
      setErrors(
        body.errors?.length ? body.errors : [{ parameter: "form", detail: body.detail ?? `The request failed (${response.status}).` }],
      );
    } catch {
      setErrors([{ parameter: "form", detail: "The request could not be sent; check your connection and try again." }]);
    } finally {
      setSubmitting(false);
    }
  }

  const describedBy = (field: FieldName) => (errorFor(field).length ? `${field}-error` : undefined);
  const fieldError = (field: FieldName) =>
    errorFor(field).length ? (
      <p className="field-error" id={`${field}-error`} data-testid={`error-${field}`}>
        {errorFor(field).join("; ")}
      </p>
    ) : null;
  const value = (field: string) => initialValues[field];

  return (
    <>
      {reference ? (
        <div className="notice notice-ok" role="status" data-testid="request-received">
          <p>
            <strong>Request received.</strong> Your reference is <code data-testid="reference">{reference}</code>.
          </p>
          <p>
            The operator reviews requests by hand and sends the key to the email you gave; quote the reference when you write. The key is
            shown once: store it when it arrives.
          </p>
        </div>
      ) : null}
      {formErrors.length ? (
        <div className="notice notice-error" role="alert">
          {formErrors.map((e) => (
            <p key={e.detail}>{e.detail}</p>
          ))}
        </div>
      ) : null}
      <form className="request-form" action="/api/auth/key-requests" method="post" ref={formRef} onSubmit={(event) => void submit(event)}>
        <div className="field">
          <label htmlFor="name">{FIELDS.name}</label>
          <input
            id="name"
            name="name"
            required
            minLength={2}
            maxLength={200}
            defaultValue={value("name")}
            aria-invalid={!!describedBy("name")}
            aria-describedby={describedBy("name")}
          />
          {fieldError("name")}
        </div>
        <div className="field">
          <label htmlFor="email">{FIELDS.email}</label>
          <input
            id="email"
            name="email"
            type="email"
            required
            maxLength={254}
            defaultValue={value("email")}
            aria-invalid={!!describedBy("email")}
            aria-describedby={describedBy("email")}
          />
          {fieldError("email")}
        </div>
        <div className="field">
          <label htmlFor="use_case">{FIELDS.use_case}</label>
          <textarea
            id="use_case"
            name="use_case"
            required
            minLength={20}
            maxLength={2000}
            rows={4}
            placeholder="What you will build with the data (at least 20 characters)"
            defaultValue={value("use_case")}
            aria-invalid={!!describedBy("use_case")}
            aria-describedby={describedBy("use_case")}
          />
          {fieldError("use_case")}
        </div>
        <div className="field-row">
          <div className="field">
            <label htmlFor="requests_per_minute">{FIELDS.requests_per_minute}</label>
            <input
              id="requests_per_minute"
              name="requests_per_minute"
              type="number"
              inputMode="numeric"
              min={1}
              required
              defaultValue={value("requests_per_minute")}
              aria-invalid={!!describedBy("requests_per_minute")}
              aria-describedby={describedBy("requests_per_minute")}
            />
            {fieldError("requests_per_minute")}
          </div>
          <div className="field">
            <label htmlFor="requests_per_day">{FIELDS.requests_per_day}</label>
            <input
              id="requests_per_day"
              name="requests_per_day"
              type="number"
              inputMode="numeric"
              min={1}
              required
              defaultValue={value("requests_per_day")}
              aria-invalid={!!describedBy("requests_per_day")}
              aria-describedby={describedBy("requests_per_day")}
            />
            {fieldError("requests_per_day")}
          </div>
          <div className="field">
            <label htmlFor="desired_tier">{FIELDS.desired_tier}</label>
            <select
              id="desired_tier"
              name="desired_tier"
              defaultValue={value("desired_tier") ?? "starter"}
              aria-invalid={!!describedBy("desired_tier")}
              aria-describedby={describedBy("desired_tier")}
            >
              <option value="starter">starter</option>
              <option value="pro">pro</option>
              <option value="enterprise">enterprise</option>
            </select>
            {fieldError("desired_tier")}
          </div>
        </div>
        {/* Hidden from people (off-screen, skipped by keyboard and screen readers): only bots fill it in. */}
        <div className="hp-field" aria-hidden="true">
          <label htmlFor="website">Website (leave empty)</label>
          <input id="website" name="website" type="text" tabIndex={-1} autoComplete="off" />
        </div>
        <button type="submit" className="button button-primary" disabled={submitting}>
          {submitting ? "Sending…" : "Request a key"}
        </button>
      </form>
    </>
  );
}
