package io.spillover.system;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Who may call an API operation. Every handler of the API carries one; a handler without it is refused,
 * so a new endpoint cannot be open by accident. Team-scoped operations take the team from the
 * {@code {team}} path variable; a caller who is not in that team gets 404, as if it did not exist.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Access {

    Level value();

    enum Level {
        /** Anyone signed in. */
        AUTHENTICATED,
        /** A member (or team admin) of the path's team, or a platform admin. */
        MEMBER,
        /** A team admin of the path's team, or a platform admin. */
        TEAM_ADMIN,
        /** A platform admin only. */
        PLATFORM_ADMIN
    }
}
