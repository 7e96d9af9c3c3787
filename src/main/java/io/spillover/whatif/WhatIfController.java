package io.spillover.whatif;

import io.spillover.system.Access;
import java.net.URI;
import java.util.List;
import java.util.UUID;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** Platform admins start what-if runs and read them as they go and once done. */
@RestController
@RequestMapping("/api/v1/admin/what-if")
class WhatIfController {

    private final WhatIfService whatIf;

    WhatIfController(WhatIfService whatIf) {
        this.whatIf = whatIf;
    }

    /** Starts a run: 202 with the run, QUEUED; {@code Location} is where to follow it. */
    @PostMapping
    @Access(Access.Level.PLATFORM_ADMIN)
    ResponseEntity<WhatIfView> start(@RequestBody WhatIfRequest request) {
        WhatIfView run = whatIf.start(request);
        return ResponseEntity.accepted().location(URI.create("/api/v1/admin/what-if/" + run.id())).body(run);
    }

    /** The newest runs, without their figures. */
    @GetMapping
    @Access(Access.Level.PLATFORM_ADMIN)
    List<WhatIfView> list() {
        return whatIf.list();
    }

    /** One run: its status and progress, and once done, the figures of both sides. */
    @GetMapping("/{id}")
    @Access(Access.Level.PLATFORM_ADMIN)
    WhatIfView get(@PathVariable UUID id) {
        return whatIf.get(id);
    }
}
