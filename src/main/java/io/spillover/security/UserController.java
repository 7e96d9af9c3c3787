package io.spillover.security;

import io.spillover.system.Access;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/** Platform admins manage people and their team memberships; anyone signed in can ask who they are. */
@RestController
class UserController {

    private final UserService users;
    private final Callers callers;

    UserController(UserService users, Callers callers) {
        this.users = users;
        this.callers = callers;
    }

    @GetMapping("/api/v1/me")
    @Access(Access.Level.AUTHENTICATED)
    Caller me() {
        return callers.current().orElseThrow();
    }

    @GetMapping("/api/v1/admin/users")
    @Access(Access.Level.PLATFORM_ADMIN)
    List<UserView> list() {
        return users.list();
    }

    @GetMapping("/api/v1/admin/users/{username}")
    @Access(Access.Level.PLATFORM_ADMIN)
    UserView get(@PathVariable String username) {
        return users.get(username);
    }

    /** Creates (201) or changes (200) a user. */
    @PutMapping("/api/v1/admin/users/{username}")
    @Access(Access.Level.PLATFORM_ADMIN)
    ResponseEntity<UserView> put(@PathVariable String username, @RequestBody UserDefinition definition) {
        boolean created = users.put(username, definition);
        return ResponseEntity.status(created ? HttpStatus.CREATED : HttpStatus.OK).body(users.get(username));
    }

    @PutMapping("/api/v1/admin/users/{username}/memberships/{team}")
    @Access(Access.Level.PLATFORM_ADMIN)
    UserView join(@PathVariable String username, @PathVariable String team, @RequestBody MembershipRequest request) {
        return users.setMembership(username, team, request.role());
    }

    @DeleteMapping("/api/v1/admin/users/{username}/memberships/{team}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    @Access(Access.Level.PLATFORM_ADMIN)
    void leave(@PathVariable String username, @PathVariable String team) {
        users.removeMembership(username, team);
    }

    record MembershipRequest(TeamRole role) {
    }
}
