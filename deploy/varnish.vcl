vcl 4.1;
# Varnish 7 in front of docs-server: a shared cache for every site it serves. Tested by test/edge/.
#
#   varnishd -a :80 -f /etc/varnish/varnish.vcl -s malloc,1g
#   docs-server … --cdn-purge varnish:http://varnish-1:80,http://varnish-2:80
#
# Needs Debian's `varnish` and `varnish-modules` (the xkey vmod), and varnish-origin.vcl (the
# replicas and who may purge) on vcl_path beside this file. Nothing here names a site: what is cached
# and for how long is what docs-server says in its headers.
#
# - The cache key is the Host (lower-cased) and the URL: two sites never share an entry, whatever the
#   path. Answers also vary as docs-server's `Vary` says (Accept for Markdown, Accept-Encoding).
# - Only site files are stored: docs-server marks them with `Surrogate-Key: project-<id> deployment-<id>`
#   and `Cache-Control: public, max-age=0, s-maxage=…, stale-while-revalidate=…, stale-if-error=…`.
#   The API, the dashboard, previews (`private`) and unknown hosts (`no-store`) pass through.
# - `PURGE` with `xkey-purge: project-<id> …` from docs_purgers drops every object of those tags at once
#   (docs-server sends it when a deployment goes live, a domain changes, a project goes).
# - Stale copies: within stale-while-revalidate a stale page is served while it is fetched again in the
#   background; past it the page is fetched first. When the origin fails (no answer, or a 5xx), the
#   stale copy is served for as long as stale-if-error allows; a page never cached gets a 503 page.

import std;
import xkey;

include "varnish-origin.vcl";

sub vcl_recv {
    set req.backend_hint = docs_origin.backend();

    if (req.method == "PURGE") {
        if (client.ip !~ docs_purgers) {
            return (synth(403, "Not allowed to purge"));
        }
        if (!req.http.xkey-purge) {
            return (synth(400, "Name the tags to purge in an xkey-purge header"));
        }
        set req.http.X-Docs-Purged = xkey.purge(req.http.xkey-purge);
        return (synth(200, "Purged"));
    }

    # The flags below are this file's own, set only across a restart: never a reader's.
    if (req.restarts == 0) {
        unset req.http.X-Docs-Origin-Down;
        unset req.http.X-Docs-Refresh;
        unset req.http.X-Docs-Brotli;
    }

    if (req.method != "GET" && req.method != "HEAD") {
        return (pass);
    }
    # API calls with a token are never shared.
    if (req.http.Authorization) {
        return (pass);
    }

    # What docs-server's answers vary on, reduced to the values it tells apart, so one copy serves every
    # browser: Accept only asks for Markdown or not; brotli is kept apart from gzip (Varnish itself
    # asks the origin for gzip and unzips for a client without it).
    if (req.http.Accept ~ "\btext/markdown\b") {
        set req.http.Accept = "text/markdown";
    } else {
        unset req.http.Accept;
    }
    if (req.restarts == 0 && req.http.Accept-Encoding ~ "\bbr\b" && req.http.Accept-Encoding !~ "\bbr;\s*q=0(\.0*)?\b") {
        set req.http.X-Docs-Brotli = "br";
    }

    if (req.http.X-Docs-Origin-Down) {
        # The origin failed: any stale copy that stale-if-error (the object's grace) still allows.
        set req.grace = 3650d;
    } else if (req.http.X-Docs-Refresh) {
        # Stale past stale-while-revalidate: fetch now, do not serve the stale copy first.
        set req.grace = 0s;
    }
    # A site sets no cookie; a reader's cookies (analytics on a custom domain) do not change a page, and
    # an answer that depends on one (the dashboard) is never stored (see vcl_backend_response).
    return (hash);
}

sub vcl_hash {
    hash_data(req.url);
    hash_data(std.tolower(req.http.host));
    if (req.http.X-Docs-Brotli) {
        hash_data("br");
    }
    return (lookup);
}

sub vcl_hit {
    # The object's grace is stale-if-error; past stale-while-revalidate, a healthy origin is asked first.
    if (obj.ttl < 0s && !req.http.X-Docs-Origin-Down
        && obj.ttl + std.duration(obj.http.X-Docs-Stale-While-Revalidate, 0s) < 0s) {
        set req.http.X-Docs-Refresh = "1";
        return (restart);
    }
}

sub vcl_backend_fetch {
    if (bereq.http.X-Docs-Brotli) {
        set bereq.http.Accept-Encoding = "br";
    }
    unset bereq.http.X-Docs-Brotli;
    unset bereq.http.X-Docs-Origin-Down;
    unset bereq.http.X-Docs-Refresh;
}

sub vcl_backend_response {
    if (beresp.status >= 500) {
        # A failing origin never replaces a stale copy; the client side falls back to it (vcl_deliver).
        if (bereq.is_bgfetch) {
            return (abandon);
        }
        set beresp.http.X-Docs-Origin-Failed = "1";
        set beresp.uncacheable = true;
        set beresp.ttl = 0s;
        return (deliver);
    }
    # Only docs-server's site files are shared: they carry the tags they are purged by, and say public.
    if (!beresp.http.Surrogate-Key || beresp.http.Set-Cookie
        || beresp.http.Cache-Control !~ "(?i)\bpublic\b"
        || beresp.http.Cache-Control ~ "(?i)\b(private|no-store|no-cache)\b") {
        set beresp.uncacheable = true;
        set beresp.ttl = 120s;
        return (deliver);
    }
    # beresp.ttl is s-maxage and beresp.grace stale-while-revalidate (Varnish reads both); keep the
    # copy for stale-if-error when that is longer, and remember stale-while-revalidate for vcl_hit.
    set beresp.http.X-Docs-Stale-While-Revalidate = beresp.grace + "s";
    if (beresp.http.Cache-Control ~ "(?i)\bstale-if-error=\d+") {
        set beresp.grace = std.duration(
            regsub(beresp.http.Cache-Control, "(?i)^.*\bstale-if-error=(\d+).*$", "\1s"), beresp.grace);
    }
    set beresp.http.xkey = beresp.http.Surrogate-Key;
    return (deliver);
}

sub vcl_backend_error {
    # A stale copy stays when a background refresh fails.
    if (bereq.is_bgfetch) {
        return (abandon);
    }
    set beresp.http.X-Docs-Origin-Failed = "1";
    call docs_origin_down_page;
    return (deliver);
}

sub vcl_deliver {
    # The origin failed: look again, this time taking any stale copy (vcl_recv).
    if (resp.http.X-Docs-Origin-Failed && !req.http.X-Docs-Origin-Down && req.method != "PURGE") {
        set req.http.X-Docs-Origin-Down = "1";
        return (restart);
    }
    set resp.http.X-Cache = "MISS";
    if (obj.hits > 0) {
        set resp.http.X-Cache = "HIT";
    }
    if (req.http.X-Docs-Origin-Down && obj.hits > 0) {
        set resp.http.X-Cache = "HIT, stale: origin down";
    }
    unset resp.http.xkey;
    unset resp.http.X-Docs-Stale-While-Revalidate;
    unset resp.http.X-Docs-Origin-Failed;
}

sub vcl_synth {
    if (req.method == "PURGE" && resp.status == 200) {
        set resp.http.Content-Type = "application/json";
        set resp.body = {"{"purged": "} + req.http.X-Docs-Purged + {"}
"};
        return (deliver);
    }
    set resp.http.Content-Type = "text/plain; charset=utf-8";
    set resp.body = resp.reason + {"
"};
    return (deliver);
}

# The answer for a page the cache does not hold while no docs-server answers.
sub docs_origin_down_page {
    set beresp.status = 503;
    set beresp.reason = "Service Unavailable";
    set beresp.uncacheable = true;
    set beresp.ttl = 0s;
    set beresp.http.Content-Type = "text/html; charset=utf-8";
    set beresp.http.Cache-Control = "no-store";
    set beresp.http.Retry-After = "30";
    set beresp.http.X-Content-Type-Options = "nosniff";
    set beresp.http.Content-Security-Policy = "default-src 'none'; style-src 'unsafe-inline'";
    synthetic({"<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>Docs temporarily unavailable</title><style>body{font:16px/1.6 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1.5rem;color:#17191c}p{color:#5f6670}</style></head><body><main><h1>Docs temporarily unavailable</h1><p>The docs server behind this cache is not answering, and this page was not cached yet. Pages read recently are still served. Try again in a minute.</p></main></body></html>
"});
}
