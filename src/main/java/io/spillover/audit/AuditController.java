package io.spillover.audit;

import io.spillover.shared.InvalidRequestException;
import io.spillover.system.Access;
import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
class AuditController {

    private final AuditLog audit;

    AuditController(AuditLog audit) {
        this.audit = audit;
    }

    @GetMapping("/api/v1/admin/audit")
    @Access(Access.Level.PLATFORM_ADMIN)
    List<AuditEntry> recent(@RequestParam(defaultValue = "0") int page, @RequestParam(defaultValue = "50") int size) {
        if (page < 0 || size < 1 || size > 500) {
            throw new InvalidRequestException("size", "page must be 0 or more and size from 1 to 500");
        }
        return audit.recent(page, size);
    }
}
